"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isJsonObject = void 0;
const isJsonObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
exports.isJsonObject = isJsonObject;
//# sourceMappingURL=json-object.js.map