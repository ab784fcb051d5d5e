"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=fact-source.js.map