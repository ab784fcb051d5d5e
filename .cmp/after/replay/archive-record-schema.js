"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.archiveRecordSchema = void 0;
const archive_record_1 = require("../archive/archive-record");
const facts_schema_1 = require("../policy/facts/facts-schema");
/** The envelope of an archive line (format 1); the payload is checked by the payload schema when replayed. */
exports.archiveRecordSchema = {
    type: 'object',
    required: ['format', 'id', 'at', 'revision', 'builtIns', 'explain', 'payload', 'facts', 'answer', 'results'],
    properties: {
        format: { const: archive_record_1.ARCHIVE_FORMAT },
        id: { type: 'string' },
        at: { type: 'string', format: 'date-time' },
        revision: { type: 'string' },
        builtIns: { type: 'array', items: { type: 'string' } },
        explain: { type: 'boolean' },
        payload: { type: 'object' },
        masked: { type: 'array', items: { type: 'string' } },
        facts: {
            type: 'object',
            required: ['needs'],
            properties: { needs: { type: 'array', items: facts_schema_1.needSchema }, state: { type: 'object' } },
        },
        answer: {
            type: 'object',
            required: ['status', 'body'],
            properties: { status: { type: 'integer' }, body: { type: 'object' } },
        },
        results: {
            type: 'array',
            items: {
                type: 'object',
                required: ['policy', 'result'],
                properties: { policy: { type: 'string' }, result: { type: 'string' } },
            },
        },
    },
};
//# sourceMappingURL=archive-record-schema.js.map