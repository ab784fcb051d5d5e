import { _, type CodeKeywordDefinition } from 'ajv';
import { STRING_SYNTAXES, type StringSyntax } from '../syntax/string-syntax';

/**
 * `syntax: glob` (or name, trimmed, timeZone, ...) on a string schema: the string's own grammar,
 * checked by src/syntax/string-syntax.ts; the error's message says what is wrong with it.
 * Editors ignore the keyword.
 *
 * A code keyword (not a `validate` function) so that precompiled validators hold it too: the code
 * calls `STRING_SYNTAXES[syntax]`, an import every generated validator module makes
 * (scripts/build-validators.js), as ajv-formats' formats are `require`d there.
 */
export const syntaxKeyword: CodeKeywordDefinition = {
  keyword: 'syntax',
  type: 'string',
  schemaType: 'string',
  metaSchema: { enum: Object.keys(STRING_SYNTAXES) },
  error: {
    message: ({ params }) => _`${params.problem}`,
    params: ({ schema }) => _`{syntax: ${schema}}`,
  },
  code(cxt) {
    const syntax = cxt.schema as StringSyntax;
    const check = cxt.gen.scopeValue('func', { ref: STRING_SYNTAXES[syntax], code: _`STRING_SYNTAXES[${syntax}]` });
    const problem = cxt.gen.const('problem', _`${check}(${cxt.data})`);
    cxt.setParams({ problem });
    cxt.fail(_`${problem} !== undefined`);
  },
};
