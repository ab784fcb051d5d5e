"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=term-types.js.map