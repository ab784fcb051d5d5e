"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.signalSourcesFileSchema = void 0;
const entrySchema = {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
        url: { type: 'string', minLength: 1 },
        bearerToken: { type: 'string', minLength: 1 },
        bearerTokenFile: { type: 'string', minLength: 1 },
        basicAuth: {
            type: 'object',
            additionalProperties: false,
            required: ['username'],
            properties: {
                username: { type: 'string', minLength: 1 },
                password: { type: 'string' },
                passwordFile: { type: 'string', minLength: 1 },
            },
        },
        header: {
            type: 'object',
            additionalProperties: false,
            required: ['name'],
            properties: {
                name: { type: 'string', pattern: '^[A-Za-z0-9-]+$' },
                value: { type: 'string', minLength: 1 },
                valueFile: { type: 'string', minLength: 1 },
            },
        },
        caFile: { type: 'string', minLength: 1 },
    },
};
const jsonEntrySchema = {
    ...entrySchema,
    properties: {
        ...entrySchema.properties,
        format: { type: 'string', enum: ['json', 'ical'] },
        timeZone: { type: 'string', minLength: 1 },
    },
};
const byName = (entry) => ({
    type: 'object',
    propertyNames: { syntax: 'sourceName' },
    additionalProperties: entry,
});
/** SIGNAL_SOURCES_FILE (docs/signals.md): sources by kind, then by name. */
exports.signalSourcesFileSchema = {
    type: 'object',
    additionalProperties: false,
    properties: { alertmanager: byName(entrySchema), prometheus: byName(entrySchema), json: byName(jsonEntrySchema) },
};
//# sourceMappingURL=signal-sources-file-schema.js.map