"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=predicate.js.map