"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.validateSignalFacts = validateSignalFacts;
const field_errors_1 = require("../../validation/field-errors");
const signal_facts_schema_1 = require("./generated/signal-facts-schema");
/** Checks a signal facts document; the errors name the path (`alertmanager.default.alerts[0].labels: is required`). */
function validateSignalFacts(value) {
    if ((0, signal_facts_schema_1.validateSignalFactsDocument)(value))
        return { ok: true, facts: value };
    return { ok: false, errors: (0, field_errors_1.toFieldErrors)(signal_facts_schema_1.validateSignalFactsDocument.errors, (0, field_errors_1.validated)(signal_facts_schema_1.validateSignalFactsDocument, value)) };
}
//# sourceMappingURL=validate-signal-facts.js.map