"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.policyReferences = policyReferences;
exports.documentReferences = documentReferences;
exports.noReferences = noReferences;
exports.addDocumentReferences = addDocumentReferences;
exports.keepReferences = keepReferences;
exports.addKeptReferences = addKeptReferences;
const yaml_source_1 = require("../compile/yaml-source");
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v) => (Array.isArray(v) ? v.filter((s) => typeof s === 'string') : []);
const pathText = (path) => path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
/** The references of the policy files as written (`preflight-gate doctor`): see documentReferences. */
function policyReferences(sources) {
    return documentReferences(sources.flatMap((source) => (0, yaml_source_1.parseYamlSource)(source).documents));
}
/**
 * Reads the references from parsed policy documents as written (whether or not they compile),
 * each with its location: environment names in `match`/`exclude` and in `environments` rules, team
 * keys and action ids in `match`/`exclude`, action ids in `actions` rules, target types in `targets.perType`, the attribute keys `targetAttributes` and `blastRadius` rules read, modification property keys, and
 * the aliases.
 */
function documentReferences(documents) {
    const refs = noReferences();
    for (const doc of documents)
        addDocumentReferences(refs, doc);
    return refs;
}
function noReferences() {
    return {
        environments: [],
        attributes: [],
        queryAttributes: [],
        properties: [],
        aliases: [],
        teams: [],
        actionIds: [],
        targetTypes: [],
    };
}
/**
 * Where a reference is written, located when first asked: a valid set's references are only read
 * for their names, and a position can cost a parse of the file. A class with its accessors on the
 * prototype: an object per reference with accessors and two closures of its own made the loader
 * hold 13 MB more for 10,000 policies (measured on Node 26.12.1).
 */
class LazyLocated {
    place;
    where;
    at;
    constructor(place, where) {
        this.place = place;
        this.where = where;
    }
    get file() {
        return this.place.file;
    }
    get path() {
        return pathText(this.where);
    }
    get line() {
        this.at ??= this.place.locate(this.where);
        return this.at.line;
    }
    get col() {
        this.at ??= this.place.locate(this.where);
        return this.at.col;
    }
}
/**
 * Adds one document's references to `refs`, so a loader can read them as it goes and let the
 * parsed document go (the YAML trees of 10,000 files held to the end took ~100 MB at start-up).
 */
function addDocumentReferences(refs, doc, place = doc) {
    const at = (path) => new LazyLocated(place, path);
    const value = doc.value;
    if (!isObject(value))
        return;
    if (value.kind === 'EnvironmentAliases' && isObject(value.aliases)) {
        for (const [alias, ids] of Object.entries(value.aliases))
            refs.aliases.push(Object.assign(at(['aliases', alias]), { alias, ids: strings(ids) }));
        return;
    }
    for (const scope of ['match', 'exclude']) {
        const spec = isObject(value[scope]) ? value[scope] : {};
        strings(spec.environments).forEach((v, i) => refs.environments.push(Object.assign(at([scope, 'environments', i]), { value: v })));
        for (const field of ['teams', 'createdByTeams'])
            strings(spec[field]).forEach((v, i) => refs.teams.push(Object.assign(at([scope, field, i]), { value: v })));
        // The owning team of match.ownedBy: misspelt, its exceptions would ask members of no team.
        const owning = isObject(spec.ownedBy) ? spec.ownedBy.team : undefined;
        if (typeof owning === 'string')
            refs.teams.push(Object.assign(at([scope, 'ownedBy', 'team']), { value: owning }));
        strings(spec.actionIds).forEach((v, i) => refs.actionIds.push(Object.assign(at([scope, 'actionIds', i]), { value: v })));
    }
    if (value.kind !== 'Policy')
        return;
    (Array.isArray(value.rules) ? value.rules : []).forEach((rule, r) => {
        if (!isObject(rule))
            return;
        if (isObject(rule.environments)) {
            for (const list of ['blocked', 'allowed']) {
                strings(rule.environments[list]).forEach((v, i) => refs.environments.push(Object.assign(at(['rules', r, 'environments', list, i]), { value: v })));
            }
        }
        if (isObject(rule.actions)) {
            for (const list of ['blocked', 'allowed']) {
                strings(rule.actions[list]).forEach((v, i) => refs.actionIds.push(Object.assign(at(['rules', r, 'actions', list, i]), { value: v })));
            }
        }
        const perType = isObject(rule.targets) ? rule.targets.perType : undefined;
        if (isObject(perType))
            for (const type of Object.keys(perType))
                refs.targetTypes.push(Object.assign(at(['rules', r, 'targets', 'perType', type]), { value: type }));
        if (isObject(rule.targetAttributes)) {
            for (const list of ['forbid', 'allowOnly']) {
                const keys = rule.targetAttributes[list];
                if (isObject(keys))
                    for (const key of Object.keys(keys))
                        refs.attributes.push(Object.assign(at(['rules', r, 'targetAttributes', list, key]), { key }));
            }
        }
        if (isObject(rule.blastRadius)) {
            const spec = rule.blastRadius;
            strings(spec.requireKeys).forEach((key, i) => refs.queryAttributes.push(Object.assign(at(['rules', r, 'blastRadius', 'requireKeys', i]), { key })));
            if (isObject(spec.forbidValues))
                for (const key of Object.keys(spec.forbidValues))
                    refs.queryAttributes.push(Object.assign(at(['rules', r, 'blastRadius', 'forbidValues', key]), { key }));
        }
    });
    (Array.isArray(value.modifications) ? value.modifications : []).forEach((m, i) => {
        if (isObject(m) && typeof m.propertyKey === 'string')
            refs.properties.push(Object.assign(at(['modifications', i, 'propertyKey']), { propertyKey: m.propertyKey, type: String(m.type) }));
    });
}
/** The own fields of a LazyLocated that say where it is, not what it names. */
const PLACE_FIELDS = new Set(['place', 'where', 'at']);
/**
 * What a loader keeps of a file's references between loads: the places of 10,000 policies'
 * references took 10 MB (measured on Node 26.12.1), and they are only read to report a typo.
 */
function keepReferences(refs) {
    const kept = {};
    for (const family of Object.keys(refs))
        kept[family] = refs[family].map((ref) => Object.fromEntries(Object.entries(ref).filter(([key]) => !PLACE_FIELDS.has(key))));
    return kept;
}
/** A kept reference whose place is found again, when first asked, by reading its file's references anew. */
class FoundAgain {
    file;
    found;
    family;
    i;
    constructor(file, found, family, i) {
        this.file = file;
        this.found = found;
        this.family = family;
        this.i = i;
    }
    get located() {
        return this.found()[this.family][this.i];
    }
    get path() {
        return this.located.path;
    }
    get line() {
        return this.located.line;
    }
    get col() {
        return this.located.col;
    }
}
/** Adds the kept references of `source` to `refs`; their places are read from `source` when first asked. */
function addKeptReferences(refs, kept, source) {
    let again;
    const found = () => {
        again ??= documentReferences((0, yaml_source_1.parseYamlSource)(source).documents);
        return again;
    };
    for (const family of Object.keys(kept))
        kept[family].forEach((fields, i) => refs[family].push(Object.assign(new FoundAgain(source.file, found, family, i), fields)));
}
//# sourceMappingURL=policy-references.js.map