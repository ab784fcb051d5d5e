"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.syntaxKeyword = void 0;
const ajv_1 = require("ajv");
const string_syntax_1 = require("../syntax/string-syntax");
/**
 * `syntax: glob` (or name, trimmed, timeZone, ...) on a string schema: the string's own grammar,
 * checked by src/syntax/string-syntax.ts; the error's message says what is wrong with it.
 * Editors ignore the keyword.
 *
 * A code keyword (not a `validate` function) so that precompiled validators hold it too: the code
 * calls `STRING_SYNTAXES[syntax]`, an import every generated validator module makes
 * (scripts/build-validators.js), as ajv-formats' formats are `require`d there.
 */
exports.syntaxKeyword = {
    keyword: 'syntax',
    type: 'string',
    schemaType: 'string',
    metaSchema: { enum: Object.keys(string_syntax_1.STRING_SYNTAXES) },
    error: {
        message: ({ params }) => (0, ajv_1._) `${params.problem}`,
        params: ({ schema }) => (0, ajv_1._) `{syntax: ${schema}}`,
    },
    code(cxt) {
        const syntax = cxt.schema;
        const check = cxt.gen.scopeValue('func', { ref: string_syntax_1.STRING_SYNTAXES[syntax], code: (0, ajv_1._) `STRING_SYNTAXES[${syntax}]` });
        const problem = cxt.gen.const('problem', (0, ajv_1._) `${check}(${cxt.data})`);
        cxt.setParams({ problem });
        cxt.fail((0, ajv_1._) `${problem} !== undefined`);
    },
};
//# sourceMappingURL=syntax-keyword.js.map