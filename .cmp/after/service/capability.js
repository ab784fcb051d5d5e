"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=capability.js.map