"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PREFLIGHT_EVENT = void 0;
exports.PREFLIGHT_EVENT = 'experiment.execution.preflight';
//# sourceMappingURL=types.js.map