"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=run-guard-deps.js.map