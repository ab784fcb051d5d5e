"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=rule-branch.js.map