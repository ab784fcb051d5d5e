"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ENVIRONMENT_NAMES = void 0;
exports.ENVIRONMENT_NAMES = Object.freeze({ kind: 'environment-names' });
//# sourceMappingURL=environment-facts.js.map