"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=guard-stop.js.map