"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.unknownKindMessage = unknownKindMessage;
const document_schema_1 = require("./document-schema");
const near_name_1 = require("./near-name");
/** The kind of a test suite: its documents belong in `*.test.yaml` files, which the policy loader does not read. */
const SUITE_KIND = 'PolicyTestSuite';
/** The last part of a path, / or \\ separated (no node:path: the playground runs this in a browser). */
const fileName = (file) => file.split(/[\\/]/).at(-1) ?? file;
/** The kind of a property: its documents belong in `*.property.yaml` files, which the policy loader does not read. */
const PROPERTY_KIND = 'PolicyProperty';
/** Whether a document reads as a test suite: it says so, or it has `cases` (no policy-set document has). */
const suiteLike = (kind, value) => kind === SUITE_KIND || 'cases' in value;
/**
 * Why a document of a policy file has no kind the loader knows, and what was meant: the closest
 * kind (`kind: Polcy`, `kind: policy`), or, for a test suite or a property saved under a policy
 * file's name (`x.yaml`), the name it needs (`x.test.yaml`, `x.property.yaml`).
 */
function unknownKindMessage(kind, value, file) {
    const known = Object.keys(document_schema_1.DOCUMENT_SCHEMAS);
    const problem = `kind must be one of ${known.join(', ')}${kind === undefined ? ' (it is missing)' : `, got ${JSON.stringify(kind)}`}`;
    if (suiteLike(kind, value)) {
        const suiteName = fileName(file).replace(/\.ya?ml$/i, '.test.yaml');
        return `${problem}: this is a test suite; rename the file to ${suiteName} (test suites are *.test.yaml files, run by \`preflight-gate test\`)`;
    }
    if (kind === PROPERTY_KIND) {
        const propertyName = fileName(file).replace(/\.ya?ml$/i, '.property.yaml');
        return `${problem}: this is a property; rename the file to ${propertyName} (properties are *.property.yaml files, answered by \`preflight-gate prove\`, docs/prove.md)`;
    }
    const meant = typeof kind === 'string' ? (0, near_name_1.closest)(kind, known) : undefined;
    return `${problem}${meant === undefined ? '' : (0, near_name_1.didYouMean)([meant])}`;
}
//# sourceMappingURL=unknown-kind.js.map