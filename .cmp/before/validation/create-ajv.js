"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.createAjv = createAjv;
const ajv_1 = __importDefault(require("ajv"));
const ajv_formats_1 = __importDefault(require("ajv-formats"));
const syntax_keyword_1 = require("./syntax-keyword");
/**
 * An ajv instance with the service's settings. Not `verbose`: what an error is about (the value
 * written, the fields known there) is looked up only when validation failed (error-context.ts).
 * The service compiles nothing at run time: its schemas are compiled by scripts/build-validators.js
 * (with `code: { source: true, esm: true }`) into the `generated/` modules next to each schema.
 */
function createAjv(code = {}) {
    const ajv = new ajv_1.default({ allErrors: true, strict: true, allowUnionTypes: true, code });
    (0, ajv_formats_1.default)(ajv, ['date-time', 'date', 'time', 'uri', 'uuid']);
    ajv.addKeyword('markdownDescription'); // editor hint in the policy schema, ignored by validation
    ajv.addKeyword(syntax_keyword_1.syntaxKeyword);
    return ajv;
}
//# sourceMappingURL=create-ajv.js.map