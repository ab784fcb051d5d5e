"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.schemaCommand = schemaCommand;
const document_schema_1 = require("../../policy/compile/document-schema");
const facts_schema_1 = require("../../policy/facts/facts-schema");
const signal_facts_schema_1 = require("../../policy/facts/signal-facts-schema");
const suite_schema_1 = require("../suite/suite-schema");
const exit_codes_1 = require("../exit-codes");
const bad_input_error_1 = require("../../common/bad-input-error");
/** `preflight-gate schema [--test-suite | --state | --facts | --signals]`: a JSON Schema (policy documents for editors by default). */
function schemaCommand(opts, write) {
    const chosen = [
        opts.testSuite && suite_schema_1.suiteSchema,
        opts.state && facts_schema_1.stateFactsSchema,
        opts.facts && facts_schema_1.factsSchema,
        opts.signals && signal_facts_schema_1.SIGNAL_FACTS_SCHEMA,
    ].filter((s) => s !== undefined && s !== false);
    if (chosen.length > 1)
        throw new bad_input_error_1.BadInputError('give at most one of --test-suite, --state, --facts and --signals');
    write(`${JSON.stringify(chosen[0] ?? (0, document_schema_1.editorSchema)(), null, 2)}\n`);
    return exit_codes_1.EXIT.ok;
}
//# sourceMappingURL=schema-command.js.map