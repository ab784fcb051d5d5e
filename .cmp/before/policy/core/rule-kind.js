"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RuleSpecErrors = exports.RuleSpecError = exports.checkEach = exports.checkAll = void 0;
exports.defineRule = defineRule;
const rule_spec_error_1 = require("./rule-spec-error");
Object.defineProperty(exports, "checkAll", { enumerable: true, get: function () { return rule_spec_error_1.checkAll; } });
Object.defineProperty(exports, "checkEach", { enumerable: true, get: function () { return rule_spec_error_1.checkEach; } });
Object.defineProperty(exports, "RuleSpecError", { enumerable: true, get: function () { return rule_spec_error_1.RuleSpecError; } });
Object.defineProperty(exports, "RuleSpecErrors", { enumerable: true, get: function () { return rule_spec_error_1.RuleSpecErrors; } });
function defineRule(kind) {
    return kind;
}
//# sourceMappingURL=rule-kind.js.map