"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ajv = void 0;
const create_ajv_1 = require("./create-ajv");
/**
 * An ajv instance with the service's settings, for a schema compiled at run time (tests). The
 * service's own schemas are precompiled (scripts/build-validators.js): loading one costs no compile.
 */
exports.ajv = (0, create_ajv_1.createAjv)();
//# sourceMappingURL=ajv.js.map