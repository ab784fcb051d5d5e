"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=built.js.map