"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=policy-sync.js.map