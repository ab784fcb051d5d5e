"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NO_ENVIRONMENT_DIRECTORY = void 0;
exports.NO_ENVIRONMENT_DIRECTORY = { aliasesById: new Map(), environmentNames: new Map() };
//# sourceMappingURL=environment-directory.js.map