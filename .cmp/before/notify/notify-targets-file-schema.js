"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.notifyTargetsFileSchema = void 0;
const decision_1 = require("../policy/core/decision");
const notification_1 = require("./notification");
const target_config_1 = require("./target-config");
const strings = { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } };
exports.notifyTargetsFileSchema = {
    type: 'object',
    additionalProperties: false,
    required: ['targets'],
    properties: {
        targets: {
            type: 'array',
            items: {
                type: 'object',
                additionalProperties: false,
                required: ['name', 'type', 'events'],
                properties: {
                    name: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,62}$' },
                    type: { type: 'string', enum: [...target_config_1.TARGET_TYPES] },
                    url: { type: 'string', minLength: 1 },
                    urlEnv: { type: 'string', minLength: 1 },
                    urlFile: { type: 'string', minLength: 1 },
                    secret: { type: 'string', minLength: 1 },
                    secretEnv: { type: 'string', minLength: 1 },
                    secretFile: { type: 'string', minLength: 1 },
                    events: { type: 'array', minItems: 1, items: { type: 'string', enum: [...notification_1.NOTIFICATION_KINDS] } },
                    teams: strings,
                    environments: strings,
                    policies: strings,
                    modes: { type: 'array', minItems: 1, items: { type: 'string', enum: [...decision_1.MODES] } },
                    rateLimit: {
                        type: 'object',
                        additionalProperties: false,
                        properties: {
                            perMinute: { type: 'integer', minimum: 1, maximum: 6000 },
                            burst: { type: 'integer', minimum: 1, maximum: 1000 },
                        },
                    },
                    resolveAfter: { type: 'string', minLength: 1 },
                },
            },
        },
    },
};
//# sourceMappingURL=notify-targets-file-schema.js.map