"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadSuites = loadSuites;
const policy_kind_of_1 = require("../../policy/loading/policy-kind-of");
const read_policy_dir_1 = require("../../policy/loading/read-policy-dir");
const yaml_source_1 = require("../../policy/compile/yaml-source");
const document_schema_1 = require("../../policy/compile/document-schema");
const near_name_1 = require("../../policy/compile/near-name");
const schema_suggestion_1 = require("../../policy/compile/schema-suggestion");
const field_errors_1 = require("../../validation/field-errors");
const suite_schema_1 = require("./generated/suite-schema");
const field_path_1 = require("../../validation/field-path");
const missing_suite_files_1 = require("./missing-suite-files");
const suite_schema_2 = require("./suite-schema");
/** Every field name of the suite schema: what a misspelt key is compared with. */
const FIELD_NAMES = (0, schema_suggestion_1.fieldNamesOf)([suite_schema_2.suiteSchema]);
/** The suite's own kind, the one value `kind:` may have in a `*.test.yaml` file. */
const SUITE_KIND = 'PolicyTestSuite';
/** Whether a document is shaped as a test suite (it has `cases` or `defaults`, which no policy-set document has). */
const suiteShaped = (value) => value !== null && typeof value === 'object' && ('cases' in value || 'defaults' in value);
/**
 * What a schema error of a suite may have meant, as for policies (schema-suggestion.ts). A `kind`
 * near a policy-set kind (`kind: Polcy`) in a document shaped as a suite is the suite's kind
 * misspelt: it is told the suite's kind; in any other document, that it is a policy in a file
 * named as a suite.
 */
function suiteSuggestion(e, value) {
    const suggestion = (0, schema_suggestion_1.schemaSuggestion)(e, FIELD_NAMES);
    if (suggestion !== '' || (0, field_path_1.pathText)(e.path) !== 'kind' || e.badValue === undefined)
        return suggestion;
    const policyKind = (0, near_name_1.closest)(e.badValue, Object.keys(document_schema_1.DOCUMENT_SCHEMAS));
    if (policyKind === undefined)
        return '';
    return suiteShaped(value)
        ? `${(0, near_name_1.didYouMean)([SUITE_KIND])} (a *.test.yaml file is a test suite: its kind is ${SUITE_KIND}, or leave kind out)`
        : `${(0, near_name_1.didYouMean)([policyKind])} (a ${policyKind} belongs in a file not named *.test.yaml: *.test.yaml files are test suites)`;
}
/** Checks the schema cannot express: regexes compile, each case has one payload and a pinned time. */
function semanticProblems(doc) {
    const out = [];
    const regex = (source, path) => {
        try {
            new RegExp(source);
        }
        catch (err) {
            out.push({ path, message: `not a valid regular expression: ${err.message}` });
        }
    };
    const d = doc.defaults ?? {};
    if (d.payload !== undefined && d.payloadFile !== undefined)
        out.push({ path: ['defaults'], message: 'give payload or payloadFile, not both' });
    doc.cases.forEach((c, i) => {
        if (c.payload !== undefined && c.payloadFile !== undefined)
            out.push({ path: ['cases', i], message: 'give payload or payloadFile, not both' });
        if (c.payload === undefined &&
            c.payloadFile === undefined &&
            d.payload === undefined &&
            d.payloadFile === undefined) {
            out.push({
                path: ['cases', i],
                message: `case "${c.name}" has no payload: give payload or payloadFile (here or in defaults)`,
            });
        }
        if (c.now === undefined && d.now === undefined)
            out.push({
                path: ['cases', i],
                message: `case "${c.name}" has no pinned now (here or in defaults): decisions may depend on time`,
            });
        if (c.expect.message !== undefined)
            regex(c.expect.message, ['cases', i, 'expect', 'message']);
        (c.expect.modifications ?? []).forEach((m, j) => {
            const at = ['cases', i, 'expect', 'modifications', j];
            if ((m.value === undefined) === (m.valuePattern === undefined))
                out.push({ path: at, message: 'give value or valuePattern (exactly one)' });
            if (m.valuePattern !== undefined)
                regex(m.valuePattern, [...at, 'valuePattern']);
        });
    });
    const names = new Map();
    doc.cases.forEach((c, i) => {
        if (names.has(c.name))
            out.push({
                path: ['cases', i, 'name'],
                message: `duplicate case name "${c.name}" (also cases[${names.get(c.name)}])`,
            });
        else
            names.set(c.name, i);
    });
    return out;
}
function loadOne(parsed, file, problems, unparsable) {
    const locate = (path, at = 'value') => parsed?.locate(path, at) ?? { line: 1, col: 1 };
    const problem = (path, message, at = 'value') => ({
        file,
        ...locate(path, at),
        path: (0, field_path_1.pathText)(path),
        message,
        severity: 'error',
    });
    const cases = parsed?.value?.cases;
    const written = parsed === undefined && unparsable ? null : Array.isArray(cases) ? cases.length : 0;
    const suite = { file, name: file, locate, problems, written };
    if (!parsed) {
        if (!problems.some((p) => p.severity === 'error'))
            problems.push(problem([], 'empty test suite: it needs `cases`'));
        return suite;
    }
    if (!(0, suite_schema_1.validateSuite)(parsed.value)) {
        const errors = (0, schema_suggestion_1.onePerMistake)((0, field_errors_1.toLocatedErrors)(suite_schema_1.validateSuite.errors, (0, field_errors_1.validated)(suite_schema_1.validateSuite, parsed.value)), FIELD_NAMES);
        for (const e of errors)
            problems.push(problem(e.path, `${e.message}${suiteSuggestion(e, parsed.value)}`, e.atKey ? 'key' : 'value'));
        return suite;
    }
    const doc = parsed.value;
    for (const p of [...semanticProblems(doc), ...(0, missing_suite_files_1.missingSuiteFiles)(file, doc)])
        problems.push(problem(p.path, p.message));
    return { ...suite, name: doc.name ?? file, doc };
}
/** Every `*.test.yaml` below `dir`, parsed and checked; problems carry file:line:col. */
function loadSuites(dir) {
    // A suite-named file holding a policy is the loader's one error (misplaced-policies.ts), not a broken suite.
    return (0, read_policy_dir_1.readPolicyDir)(dir, { tests: true })
        .filter((source) => (0, policy_kind_of_1.policyKindOf)(source) === undefined)
        .map((source) => {
        const { documents, problems } = (0, yaml_source_1.parseYamlSource)(source);
        if (documents.length > 1) {
            problems.push({
                file: source.file,
                line: 1,
                col: 1,
                path: '',
                message: 'a test suite file holds one YAML document (found several)',
                severity: 'error',
            });
        }
        // No document but errors: the YAML could not be parsed (an empty file has no errors).
        const unparsable = problems.some((p) => p.severity === 'error');
        return loadOne(documents[0], source.file, problems, unparsable);
    });
}
//# sourceMappingURL=load-suites.js.map