"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.COMMON_ENVIRONMENT_NAMES = void 0;
/**
 * Environment names so common that, of two spellings one letter apart written equally often in a
 * set (`staging` and `stagin`), the common one is taken as meant. Used only to suggest a spelling,
 * never a limit on what a policy may name.
 */
exports.COMMON_ENVIRONMENT_NAMES = [
    'production',
    'staging',
    'development',
    'testing',
    'sandbox',
    'preprod',
    'preproduction',
    'integration',
    'acceptance',
    'global',
];
//# sourceMappingURL=common-environment-names.js.map