"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=team-facts.js.map