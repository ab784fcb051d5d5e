"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.globListSchema = void 0;
/** The schema of a rule's list of globs (action ids and the like): at least one, none twice, each checked as a glob at load. */
const globListSchema = (description) => ({
    type: 'array',
    minItems: 1,
    uniqueItems: true,
    items: { type: 'string', minLength: 1, syntax: 'glob' },
    description,
});
exports.globListSchema = globListSchema;
//# sourceMappingURL=glob-list-schema.js.map