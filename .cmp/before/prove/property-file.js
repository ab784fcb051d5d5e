"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseProperties = parseProperties;
exports.readProperties = readProperties;
exports.propertiesOf = propertiesOf;
const yaml_1 = require("yaml");
const load_policy_texts_1 = require("../policy/loading/load-policy-texts");
const read_policy_dir_1 = require("../policy/loading/read-policy-dir");
const yaml_source_1 = require("../policy/compile/yaml-source");
const rule_location_1 = require("./rule-location");
const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const PROPERTY_KEYS = new Set(['kind', 'name', 'description', 'never']);
const NEVER_KEYS = new Set(['match', 'exclude', 'rules']);
/** The properties of one file; a malformed one is a problem at its `file:line:col`, and is left out. */
function parseProperties(file, text, aliases, now) {
    const parsed = (0, yaml_source_1.parseYamlSource)({ file, text });
    const properties = [];
    const problems = parsed.problems.filter((p) => p.severity === 'error');
    for (const doc of parsed.documents) {
        const error = (path, message, at = 'key') => ({
            file,
            ...doc.locate(path, at),
            path: path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join(''),
            message,
            severity: 'error',
        });
        const found = propertyOf(doc, aliases, now, error);
        if ('problem' in found)
            problems.push(found.problem);
        else if (properties.some((p) => p.name === found.property.name))
            problems.push(error(['name'], `property "${found.property.name}" is defined twice`, 'value'));
        else
            properties.push(found.property);
    }
    return { properties, problems };
}
function propertyOf(doc, aliases, now, error) {
    const value = doc.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
        return { problem: error([], 'a property is a mapping (kind: PolicyProperty, name, never)') };
    const d = value;
    if (d.kind !== 'PolicyProperty')
        return {
            problem: error(['kind'], `a *.property.yaml file holds kind: PolicyProperty documents, got ${JSON.stringify(d.kind)}`, 'value'),
        };
    for (const key of Object.keys(d))
        if (!PROPERTY_KEYS.has(key))
            return { problem: error([key], 'unknown key (a property has name, description, never)') };
    if (typeof d.name !== 'string' || !NAME.test(d.name))
        return {
            problem: error(['name'], `lower-case letters, digits and dashes, got ${JSON.stringify(d.name)}`, 'value'),
        };
    const never = d.never;
    if (never === null || typeof never !== 'object' || Array.isArray(never))
        return { problem: error(['never'], 'the runs that must never be allowed (match, exclude, rules), is missing') };
    for (const key of Object.keys(never))
        if (!NEVER_KEYS.has(key))
            return { problem: error(['never', key], 'unknown key (never has match, exclude, rules)') };
    const compiled = neverBundle(d.name, never, aliases, now);
    if ('errors' in compiled) {
        // The first of the loader's errors, at its place inside `never:` (the loader read it as a policy).
        const [first] = compiled.errors;
        return { problem: error(['never', ...(0, rule_location_1.pathSegments)(first.path)], first.message, 'value') };
    }
    const line = doc.locate([]).line;
    const property = { name: d.name, file: doc.file, line, never: never, bundle: compiled.bundle };
    return { property: { ...property, description: typeof d.description === 'string' ? d.description : undefined } };
}
/** The `never` block as a policy named after the property, loaded by the real loader with the set's aliases. */
function neverBundle(name, never, aliases, now) {
    const policy = { kind: 'Policy', name: `property-${name}`, ...never };
    if (!Array.isArray(never.rules) || never.rules.length === 0) {
        delete policy.rules;
        // A scope alone: the policy only records that it applied (Judge asks whether it was skipped).
        policy.modifications = [{ type: 'set_property_value', propertyKey: 'preflightProperty', value: name }];
    }
    const texts = { 'property.yaml': (0, yaml_1.stringify)(policy) };
    if (Object.keys(aliases).length > 0)
        texts['aliases.yaml'] = (0, yaml_1.stringify)({ kind: 'EnvironmentAliases', aliases });
    const loaded = (0, load_policy_texts_1.loadPolicyTexts)(texts, now);
    if (!loaded.ok)
        return { errors: loaded.problems.filter((p) => p.severity === 'error') };
    return { bundle: loaded.bundle };
}
/** Every property below `dir`, and the problems of those that do not parse or compile (a name defined twice included). */
function readProperties(dir, aliases, now) {
    return propertiesOf((0, read_policy_dir_1.readPolicyDir)(dir, { properties: true }), aliases, now);
}
/** The properties of the files given (the loader's own walk found them: read-policy-dir.ts). */
function propertiesOf(sources, aliases, now) {
    const out = { properties: [], problems: [] };
    for (const source of sources) {
        const { properties, problems } = parseProperties(source.file, source.text, aliases, now);
        out.problems.push(...problems);
        for (const p of properties)
            if (out.properties.some((q) => q.name === p.name))
                out.problems.push({
                    file: p.file,
                    line: p.line,
                    col: 1,
                    path: 'name',
                    message: `property "${p.name}" is defined twice (also in ${out.properties.find((q) => q.name === p.name)?.file})`,
                    severity: 'error',
                });
            else
                out.properties.push(p);
    }
    return out;
}
//# sourceMappingURL=property-file.js.map