"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.statusOf = exports.MODES = void 0;
exports.MODES = ['enforce', 'warn', 'audit'];
/** How the violation counts. */
const statusOf = (v) => v.status ?? 'violation';
exports.statusOf = statusOf;
//# sourceMappingURL=decision.js.map