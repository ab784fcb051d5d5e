"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=attribute-redaction.js.map