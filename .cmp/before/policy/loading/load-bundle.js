"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadCache = void 0;
exports.revisionOf = revisionOf;
exports.loadBundle = loadBundle;
const sha2_1 = require("@noble/hashes/sha2");
const utils_1 = require("@noble/hashes/utils");
const assemble_bundle_1 = require("../compile/assemble-bundle");
const compile_document_1 = require("../compile/compile-document");
const shared_parts_1 = require("../compile/shared-parts");
const exception_checks_1 = require("../compile/exception-checks");
const modification_conflicts_1 = require("../compile/modification-conflicts");
const name_typos_1 = require("./name-typos");
const policy_references_1 = require("./policy-references");
const yaml_source_1 = require("../compile/yaml-source");
/**
 * @noble/hashes (audited, no dependencies) instead of node:crypto, so the loader also runs in the
 * playground page; the service passes node:crypto's (policy-reloader.ts), the same digest.
 */
const nobleSha256Hex = (text) => (0, utils_1.bytesToHex)((0, sha2_1.sha256)((0, utils_1.utf8ToBytes)(text)));
/** Content hash of a set of files, independent of the order they were read in. */
function revisionOf(sources, sha256Hex = nobleSha256Hex) {
    const keyed = sources.map((s) => ({ key: s.key ?? s.file, text: s.text }));
    // The bytes of every key and text, each ended by a NUL, hashed at once: the same digest as one
    // update per part, without 40,000 small encodings and updates for 10,000 files.
    const all = keyed
        .sort((a, b) => a.key.localeCompare(b.key))
        .map((s) => `${s.key}\0${s.text}\0`)
        .join('');
    return sha256Hex(all).slice(0, 12);
}
/** The kind and name a Policy or Exception document declares, read before (and whatever) it compiles. */
function declaredName(value) {
    if (typeof value !== 'object' || value === null)
        return undefined;
    const { kind, name } = value;
    return (kind === 'Policy' || kind === 'Exception') && typeof name === 'string' ? { kind, name } : undefined;
}
const loadCache = (digest = nobleSha256Hex) => ({ files: new Map(), digest });
exports.loadCache = loadCache;
function loadFile(source, digest, shared) {
    const parsed = (0, yaml_source_1.parseYamlSource)(source);
    const problems = [...parsed.problems];
    // An emptied file (a bad merge, an editor) would drop its policies without a word: fail closed.
    if (parsed.documents.length === 0 && parsed.problems.every((p) => p.severity !== 'error'))
        problems.push({
            file: source.file,
            line: 1,
            col: 1,
            path: '',
            message: 'the file holds no document (it is empty, or only comments): an emptied file would drop its policies without a word; restore it, or delete the file to remove them',
            severity: 'error',
        });
    // What the typo check needs is read per document: the parsed values are not kept.
    const references = (0, policy_references_1.noReferences)();
    const documents = parsed.documents.map((doc) => {
        const start = doc.locate([]);
        (0, policy_references_1.addDocumentReferences)(references, doc, (0, yaml_source_1.documentPlace)(source, doc.index, start));
        const { compiled, problems: docProblems } = (0, compile_document_1.compileDocument)(doc, shared);
        return { index: doc.index, start, named: declaredName(doc.value), compiled, problems: docProblems };
    });
    return { digest, problems, documents, references };
}
/**
 * Parses, validates and compiles every document of a policy set. Pure: same sources, same result.
 * Only a set without a single error becomes a bundle; `now` dates the expired-exception warnings.
 * With `cache` (kept between loads of one directory), a file whose text did not change since the
 * last load is taken from it, and the cache then holds this load's files; `revision` is
 * revisionOf(sources) when the caller has it already. With `builtIns`, the bundle is the set served
 * (withBuiltIns), assembled once with them: the service's reloader (docs/decisions/0032).
 */
function loadBundle(sources, now = new Date(), { cache, revision, builtIns = [], } = {}) {
    const problems = [];
    const policies = [];
    let exceptions = [];
    const aliases = new Map();
    // Where each name was first written, located only when it is written again (a position costs a parse).
    const firstSeen = new Map();
    const duplicate = (what, name, place, path) => {
        const key = `${what}:${name}`;
        const prior = firstSeen.get(key);
        if (prior)
            problems.push({
                file: place.file,
                ...place.locate(path),
                path: 'name',
                message: `duplicate ${what} name "${name}" (first defined at ${prior()})`,
                severity: 'error',
            });
        else
            firstSeen.set(key, () => `${place.file}:${place.locate(path).line}`);
    };
    let exceptionSettings;
    const declaredPolicies = new Set();
    const exceptionPlaces = new Map();
    const shared = (0, shared_parts_1.sharedParts)();
    const references = (0, policy_references_1.noReferences)();
    const files = new Map();
    for (const source of sources) {
        const kept = cache?.files.get(source.file);
        const digest = cache ? cache.digest(source.text) : '';
        const reused = kept !== undefined && kept.digest === digest;
        const file = reused ? kept : loadFile(source, digest, shared);
        files.set(source.file, file);
        problems.push(...file.problems);
        if (reused)
            (0, policy_references_1.addKeptReferences)(references, file.references, source);
        else {
            for (const [kind, refs] of Object.entries(file.references))
                references[kind].push(...refs);
            // Kept for the next load without their places: they are only read to report a typo.
            if (cache)
                file.references = (0, policy_references_1.keepReferences)(file.references);
        }
        for (const { index, start, named, compiled, problems: docProblems } of file.documents) {
            const place = (0, yaml_source_1.documentPlace)(source, index, start);
            problems.push(...docProblems);
            if (compiled?.kind === 'Policy')
                problems.push(...(0, compile_document_1.staleWarnings)(compiled.policy, now, place));
            // Names count whether or not the document compiled: one run reports a duplicate and the
            // errors of either copy, and an exception naming a policy with errors is not "missing".
            if (named) {
                duplicate(named.kind === 'Policy' ? 'policy' : 'exception', named.name, place, ['name']);
                if (named.kind === 'Policy')
                    declaredPolicies.add(named.name);
            }
            if (!compiled)
                continue;
            if (compiled.kind === 'Policy') {
                policies.push(compiled.policy);
            }
            else if (compiled.kind === 'Exception') {
                exceptions.push(compiled.exception);
                exceptionPlaces.set(compiled.exception, place);
            }
            else if (compiled.kind === 'ExceptionSettings') {
                const first = exceptionSettings?.source;
                if (first)
                    problems.push({
                        file: place.file,
                        ...place.locate([]),
                        path: '',
                        message: `ExceptionSettings given twice (first at ${first.file}:${first.line}); keep one`,
                        severity: 'error',
                    });
                else
                    exceptionSettings = compiled.settings;
            }
            else {
                for (const [alias, ids] of Object.entries(compiled.aliases)) {
                    duplicate('environment alias', alias, place, ['aliases', alias]);
                    aliases.set(alias, ids);
                }
            }
        }
    }
    if (cache)
        cache.files = files;
    // The set's settings, and the team whose consent an exception to a policy with match.ownedBy needs,
    // reach each exception before the bundle freezes (a decision reads the exception alone), on
    // copies: the compiled exceptions may be kept for the next load.
    const owningTeams = new Map(policies.flatMap((p) => (p.match.owningTeam ? [[p.name, p.match.owningTeam]] : [])));
    const notStarter = exceptionSettings?.approverNotStarter === true;
    exceptions = exceptions.map((e) => {
        const team = owningTeams.get(e.policy);
        if (!notStarter && team === undefined)
            return e;
        const copy = {
            ...e,
            ...(notStarter ? { approverNotStarter: true } : {}),
            ...(team === undefined ? {} : { owningTeam: team }),
        };
        const place = exceptionPlaces.get(e);
        if (place)
            exceptionPlaces.set(copy, place);
        return copy;
    });
    const locate = (e, field) => ({
        file: e.source.file,
        ...(exceptionPlaces.get(e)?.locate([field]) ?? e.source),
    });
    problems.push(...(0, exception_checks_1.exceptionProblems)({ exceptions, locate, declaredPolicies, settings: exceptionSettings, now }));
    problems.push(...(0, modification_conflicts_1.findModificationConflicts)(policies, aliases));
    // Likely typos are looked for once the set is valid: a name with an error is reported as that.
    if (!problems.some((p) => p.severity === 'error'))
        problems.push(...(0, name_typos_1.nameTypoWarnings)(references));
    if (policies.length === 0 && !problems.some((p) => p.severity === 'error')) {
        problems.push({
            file: sources[0]?.file ?? '(policy directory)',
            line: 1,
            col: 1,
            path: '',
            message: 'no policies found: refusing to run with an empty policy set (it would allow every run)',
            severity: 'error',
        });
    }
    const errors = problems.filter((p) => p.severity === 'error');
    if (errors.length > 0)
        return { ok: false, problems };
    policies.sort((a, b) => b.priority - a.priority || a.name.localeCompare(b.name));
    const bundle = (0, assemble_bundle_1.assembleBundle)({
        revision: revision ?? revisionOf(sources),
        loadedAt: now,
        files: sources.map((s) => s.file),
        // As withBuiltIns places them: first, then the set in bundle order.
        policies: builtIns.length === 0 ? policies : [...builtIns, ...policies],
        exceptions,
        exceptionSettings,
        aliases,
    });
    return { ok: true, bundle, warnings: problems };
}
//# sourceMappingURL=load-bundle.js.map