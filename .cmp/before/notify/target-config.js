"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TARGET_TYPES = void 0;
exports.TARGET_TYPES = ['slack', 'teams', 'webhook', 'alertmanager'];
//# sourceMappingURL=target-config.js.map