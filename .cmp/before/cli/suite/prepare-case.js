"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CaseInputError = void 0;
exports.prepareCase = prepareCase;
const node_buffer_1 = require("node:buffer");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const yaml_1 = require("yaml");
const parse_strict_json_1 = require("../../payload/parse-strict-json");
const validate_payload_1 = require("../../payload/validate-payload");
const read_facts_1 = require("../../policy/facts/read-facts");
const validate_signal_facts_1 = require("../../policy/facts/validate-signal-facts");
const payload_patch_1 = require("./payload-patch");
/** An input of the case that cannot apply, with where it is written: in the case or in the defaults. */
class CaseInputError extends Error {
    origin;
    path;
    constructor(origin, path, message) {
        super(message);
        this.origin = origin;
        this.path = path;
        this.name = 'CaseInputError';
    }
}
exports.CaseInputError = CaseInputError;
/** Which entry of the suite a failed edit comes from: the case's own, else the defaults' (they are merged). */
function locateEdit(defaults, c, err) {
    if (err.section === 'unset') {
        const fromDefaults = defaults.unset?.length ?? 0;
        const index = err.entry;
        return index < fromDefaults
            ? new CaseInputError('defaults', ['unset', index], err.message)
            : new CaseInputError('case', ['unset', index - fromDefaults], err.message);
    }
    const section = c[err.section];
    const own = section !== undefined && Object.hasOwn(section, err.entry);
    return new CaseInputError(own ? 'case' : 'defaults', [err.section, err.entry], err.message);
}
/** As the service parses a body: invalid UTF-8 and a key given twice are refused (parse-strict-json.ts). */
function parseJsonPayload(bytes, relative, field) {
    const parsed = (0, parse_strict_json_1.parseStrictJson)(bytes);
    if (!parsed.ok)
        throw new Error(`${field} ${relative} ${parsed.message}`);
    return parsed.value;
}
/** YAML refuses a key given twice itself (uniqueKeys); bytes that are not UTF-8 are refused here. */
function parseYamlPayload(bytes, relative, field) {
    if (!(0, node_buffer_1.isUtf8)(bytes))
        throw new Error(`${field} ${relative} is not valid UTF-8`);
    try {
        return (0, yaml_1.parse)(bytes.toString('utf8'));
    }
    catch (err) {
        throw new Error(`${field} ${relative} is not valid YAML: ${err.message}`);
    }
}
function readPayloadFile(suiteFile, relative, cache, field = 'payloadFile') {
    const full = (0, node_path_1.resolve)((0, node_path_1.dirname)(suiteFile), relative);
    if (!cache.has(full)) {
        let bytes;
        try {
            bytes = (0, node_fs_1.readFileSync)(full);
        }
        catch (err) {
            throw new Error(`${field} ${relative}: cannot read ${full}: ${err.code ?? err.message}`);
        }
        cache.set(full, /\.json$/i.test(full) ? parseJsonPayload(bytes, relative, field) : parseYamlPayload(bytes, relative, field));
    }
    return cache.get(full);
}
/** The case's state over the defaults' (part by part), checked as `eval --state` checks a file. */
function caseState(defaults, c) {
    if (defaults.state === undefined && c.state === undefined)
        return undefined;
    const read = (0, read_facts_1.readStateFacts)({ ...defaults.state, ...c.state });
    if (!read.ok)
        throw new Error(`state: ${(0, read_facts_1.describeFactErrors)(read.errors)}`);
    return read.facts;
}
/** The case's environment names over the defaults' (value by value), checked as `eval --environments` checks a file. */
function caseEnvironments(defaults, c) {
    if (defaults.environments === undefined && c.environments === undefined)
        return undefined;
    const read = (0, read_facts_1.readEnvironmentFacts)({ ...defaults.environments, ...c.environments });
    if (!read.ok)
        throw new Error(`environments: ${(0, read_facts_1.describeFactErrors)(read.errors)}`);
    return read.facts;
}
/** The case's team members over the defaults' (team by team), checked as `eval --teams` checks a file. */
function caseTeams(defaults, c) {
    if (defaults.teams === undefined && c.teams === undefined)
        return undefined;
    const read = (0, read_facts_1.readTeamFacts)({ ...defaults.teams, ...c.teams });
    if (!read.ok)
        throw new Error(`teams: ${(0, read_facts_1.describeFactErrors)(read.errors)}`);
    return read.facts;
}
/** One source's signal facts: inline, or from its file. */
function signalsOf(suiteFile, s, cache) {
    if (s.signals !== undefined && s.signalsFile !== undefined)
        throw new Error('give signals or signalsFile, not both');
    const given = s.signalsFile === undefined ? s.signals : readPayloadFile(suiteFile, s.signalsFile, cache, 'signalsFile');
    if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given)))
        throw new Error(`signalsFile ${s.signalsFile} must hold an object of signal facts`);
    return given;
}
/** The case's signals over the defaults' (part by part), checked as `eval --signals` checks a file. */
function caseSignals(suiteFile, defaults, c, cache) {
    const base = signalsOf(suiteFile, defaults, cache);
    const own = signalsOf(suiteFile, c, cache);
    if (base === undefined && own === undefined)
        return undefined;
    const read = (0, validate_signal_facts_1.validateSignalFacts)({ ...base, ...own });
    if (!read.ok)
        throw new Error(`signals: ${(0, read_facts_1.describeFactErrors)(read.errors)}`);
    return read.facts;
}
/**
 * The payload, time and state of one case: the case's own values over the suite's defaults.
 * The defaults' and the case's edits merge (the case's value wins for the same path). Throws with
 * a readable message when the case cannot run; a CaseInputError says where the bad entry is written.
 */
function prepareCase(suiteFile, defaults = {}, c, cache) {
    const own = c.payload !== undefined || c.payloadFile !== undefined;
    const source = own ? c : defaults;
    const base = source.payload !== undefined ? source.payload : readPayloadFile(suiteFile, source.payloadFile, cache);
    let patched;
    try {
        patched = (0, payload_patch_1.applyPatch)(base, {
            add: { ...defaults.add, ...c.add },
            patch: { ...defaults.patch, ...c.patch },
            unset: [...(defaults.unset ?? []), ...(c.unset ?? [])],
        });
    }
    catch (err) {
        if (err instanceof payload_patch_1.PatchError)
            throw locateEdit(defaults, c, err);
        throw new Error(`patch: ${err.message}`);
    }
    const checked = (0, validate_payload_1.validatePreflightPayload)(patched);
    if (!checked.ok) {
        throw new Error(`the payload is not a valid preflight payload (the service would answer 400): ${(0, validate_payload_1.describeFieldErrors)(checked.errors)}`);
    }
    return {
        payload: checked.payload,
        now: new Date((c.now ?? defaults.now)),
        state: caseState(defaults, c),
        environments: caseEnvironments(defaults, c),
        teams: caseTeams(defaults, c),
        signals: caseSignals(suiteFile, defaults, c, cache),
    };
}
//# sourceMappingURL=prepare-case.js.map