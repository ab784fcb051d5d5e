"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=compiled.js.map