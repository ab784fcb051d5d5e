"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MESSAGE_PLACEHOLDERS = void 0;
/** Placeholders a denial message may use: `{{experimentKey}}`, `{{step}}`, ... */
exports.MESSAGE_PLACEHOLDERS = [
    'policy',
    'reason',
    'experimentKey',
    'team',
    'environment',
    'executionId',
    'step',
    'target',
    'value',
    'decisionId',
    'revision',
    'now',
];
//# sourceMappingURL=template.js.map