"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.policyKindOf = policyKindOf;
const document_schema_1 = require("../compile/document-schema");
const yaml_source_1 = require("../compile/yaml-source");
/** The `kind:` of the first document of `source` that declares a policy-set kind (Policy, Exception, ...), if any. */
function policyKindOf(source) {
    for (const doc of (0, yaml_source_1.parseYamlSource)(source).documents) {
        const kind = doc.value?.kind;
        if (typeof kind === 'string' && Object.hasOwn(document_schema_1.DOCUMENT_SCHEMAS, kind))
            return kind;
    }
    return undefined;
}
//# sourceMappingURL=policy-kind-of.js.map