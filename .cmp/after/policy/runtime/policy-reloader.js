"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createPolicyReloader = createPolicyReloader;
const node_crypto_1 = require("node:crypto");
const load_bundle_1 = require("../loading/load-bundle");
const load_error_1 = require("../compile/load-error");
const ignored_policy_files_1 = require("../loading/ignored-policy-files");
const misplaced_policies_1 = require("../loading/misplaced-policies");
const policy_dir_listing_1 = require("../loading/policy-dir-listing");
const read_policy_dir_1 = require("../loading/read-policy-dir");
/** node:crypto's SHA-256: the digest revisionOf computes by default, in about a tenth of the time for 10,000 files. */
const nodeSha256Hex = (text) => (0, node_crypto_1.createHash)('sha256').update(text, 'utf8').digest('hex');
function dirProblem(dir, message) {
    return { file: dir, line: 1, col: 1, path: '', message, severity: 'error' };
}
/**
 * The files of the policy directory, read once: the hash and the load see the same bytes. With
 * them, the policies saved under a test suite's name, which are never loaded (misplaced-policies.ts).
 * Both are read from `listing`, the one walk of the directory an attempt makes.
 */
function readSources(dir, listing) {
    try {
        const sources = (0, read_policy_dir_1.readPolicyDir)(listing);
        const misplaced = (0, misplaced_policies_1.misplacedPolicies)(listing);
        if (sources.length > 0 || misplaced.length > 0)
            return { sources, misplaced };
        return {
            reason: 'missing',
            problems: [dirProblem(dir, 'no policy files (*.yaml, *.yml) found: refusing to run with an empty policy set')],
        };
    }
    catch (err) {
        const reason = err.code === 'ENOENT' ? 'missing' : 'unreadable';
        return {
            reason,
            problems: [
                dirProblem(dir, `cannot read the policy directory: ${err.message} (set POLICY_DIR to a directory of policy YAML files)`),
            ],
        };
    }
}
/**
 * loadBundle turns every known bad input into a problem; should an unknown one still throw, the
 * reload is rejected like any invalid set instead of the exception escaping a watcher callback
 * (which would end the process) while the set in use keeps serving.
 */
function loadSafely(sources, now, dir, options) {
    try {
        return (0, load_bundle_1.loadBundle)(sources, now, options);
    }
    catch (err) {
        return {
            ok: false,
            problems: [
                dirProblem(dir, `internal error while loading the policy set: ${err instanceof Error ? err.message : String(err)}`),
            ],
        };
    }
}
/**
 * Loads the policy directory into the store. A set replaces the one in use only when every file
 * is valid; otherwise the old set keeps serving and the failure is logged, counted and shown on
 * /readyz. Content that did not change since the last attempt is neither reloaded nor counted.
 */
function createPolicyReloader(deps) {
    const { dir, store, events, builtIns } = deps;
    const clock = deps.clock ?? (() => new Date());
    let lastAttempt;
    // The files of the last load: a reload parses and compiles only the files whose text changed.
    const cache = (0, load_bundle_1.loadCache)(nodeSha256Hex);
    let sync;
    let notLoaded = [];
    const setSync = (next) => {
        sync = next;
        events.synced(next);
    };
    const fail = (trigger, problems, reason, rejectedRevision) => {
        const revisionInUse = store.current()?.revision;
        const message = problems.find((p) => p.severity === 'error');
        const at = clock();
        setSync({
            inSync: false,
            reason,
            message: message ? (0, load_error_1.formatProblem)(message) : 'invalid',
            diskRevision: rejectedRevision,
            servedRevision: revisionInUse,
            checkedAt: at.toISOString(),
        });
        store.rejected(problems, { trigger, rejectedRevision, at });
        events.rejected({ trigger, problems, revisionInUse, rejectedRevision });
        return { result: 'failure', problems, revisionInUse };
    };
    return {
        sync: () => sync,
        filesNotLoaded: () => notLoaded,
        reload(trigger) {
            // One walk of the directory per attempt: every check below reads it (docs/decisions/0032).
            const listing = (0, policy_dir_listing_1.listPolicyDir)(dir);
            const read = readSources(dir, listing);
            // Whatever comes of the attempt, /readyz lists the files not loaded as they are now (the server logs them: ignored-files-report.ts).
            notLoaded = (0, ignored_policy_files_1.filesNotLoaded)(listing);
            store.filesNotLoaded((0, ignored_policy_files_1.ignoredFileProblems)(dir, notLoaded));
            // The misplaced files are not among the sources: their coming, going or changing kind is a change too.
            const revision = 'sources' in read ? (0, load_bundle_1.revisionOf)(read.sources, nodeSha256Hex) : undefined;
            const attempt = 'sources' in read
                ? [revision, ...read.misplaced.map((p) => `misplaced: ${(0, load_error_1.formatProblem)(p)}`)].join('\n')
                : `unreadable: ${read.problems.map((p) => p.message).join('\n')}`;
            const previous = store.current()?.revision;
            if (attempt === lastAttempt && previous !== undefined) {
                // Still an attempt: /readyz's lastLoad and policyFiles say when it was made (and lastLoad by what).
                // Not the start-up's second look (start-server.ts, once the watch is up): lastLoad stays the start-up's.
                const at = clock();
                if (trigger !== 'startup')
                    store.unchanged(trigger, at);
                if (sync)
                    setSync({ ...sync, checkedAt: at.toISOString() });
                events.unchanged({ trigger, revision: previous, sync });
                return { result: 'unchanged', revision: previous };
            }
            lastAttempt = attempt;
            if (!('sources' in read))
                return fail(trigger, read.problems, read.reason);
            const loaded = read.sources.length === 0 ? undefined : loadSafely(read.sources, clock(), dir, { cache, revision, builtIns });
            // A policy saved under a test suite's name refuses the set, as a typo would, told with the set's other problems.
            if (read.misplaced.length > 0 || loaded === undefined)
                return fail(trigger, (0, misplaced_policies_1.refusedWithMisplaced)(read.misplaced, loaded).problems, 'rejected');
            if (!loaded.ok)
                return fail(trigger, loaded.problems, 'rejected', attempt);
            const { bundle } = loaded;
            const at = clock();
            store.replace(bundle, loaded.warnings, trigger, at);
            events.loaded({ trigger, bundle, previous, warnings: loaded.warnings });
            setSync({ inSync: true, reason: 'in-sync', servedRevision: bundle.revision, checkedAt: at.toISOString() });
            return { result: 'success', revision: bundle.revision, previous };
        },
    };
}
//# sourceMappingURL=policy-reloader.js.map