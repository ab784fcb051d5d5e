"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.reloadReport = reloadReport;
const built_in_policies_1 = require("../policy/compile/built-in-policies");
const load_error_1 = require("../policy/compile/load-error");
/**
 * How the service counts and logs what the policy reloader does: the reload counters, the loaded
 * set's size and revision, whether the files are in sync, and one log line per outcome. `builtIns`
 * names the built-in policies the service adds to every loaded set (the reloader's bundle holds them
 * when it was given them, policy-reloader.ts): the log counts the policies as /readyz and the
 * decisions do (`policies`, built-in ones included), and names both parts (`policiesFromFiles`,
 * `builtInPolicies`).
 */
function reloadReport(deps) {
    const { metrics, logger, builtIns } = deps;
    return {
        synced(sync) {
            metrics.policyFilesInSync.set(sync.inSync ? 1 : 0);
        },
        rejected({ trigger, problems, revisionInUse, rejectedRevision }) {
            metrics.reloads.inc({ result: 'failure' });
            const errors = problems.filter((p) => p.severity === 'error').map(load_error_1.formatProblem);
            const keeps = revisionInUse ? `still serving revision ${revisionInUse}` : 'no policy set is in use';
            logger.error(`policy set rejected (${trigger}): ${errors[0] ?? 'invalid'}; ${keeps}`, {
                trigger,
                revisionInUse,
                rejectedRevision,
                problems: errors,
            });
        },
        loaded({ trigger, bundle, previous, warnings }) {
            const fromFiles = (0, built_in_policies_1.policiesFromFiles)(bundle);
            metrics.reloads.inc({ result: 'success' });
            metrics.policiesLoaded.set(fromFiles);
            if (previous !== undefined && previous !== bundle.revision)
                metrics.bundleInfo.remove({ revision: previous });
            metrics.bundleInfo.set({ revision: bundle.revision }, 1);
            for (const w of warnings)
                logger.warn('policy warning', { problem: (0, load_error_1.formatProblem)(w) });
            logger.info('policy set loaded', {
                trigger,
                revision: bundle.revision,
                previous,
                policies: fromFiles + builtIns.length,
                policiesFromFiles: fromFiles,
                builtInPolicies: builtIns,
                files: bundle.files.length,
            });
        },
        unchanged({ trigger, revision, sync }) {
            // Watch events without a content change are routine (editors, ConfigMap refreshes); SIGHUP is asked for.
            const level = trigger === 'SIGHUP' ? (sync?.inSync === false ? 'warn' : 'info') : 'debug';
            const message = sync?.inSync === false
                ? `policy reload skipped: the files are unchanged since they were rejected (${sync.message}); still serving revision ${revision}`
                : 'policy reload skipped: content unchanged';
            logger.log(level, message, { trigger, revision });
        },
    };
}
//# sourceMappingURL=reload-report.js.map