"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.compileDocument = compileDocument;
exports.staleWarnings = staleWarnings;
const schema_suggestion_1 = require("./schema-suggestion");
const field_errors_1 = require("../../validation/field-errors");
const document_schema_1 = require("./generated/document-schema");
const field_path_1 = require("../../validation/field-path");
const duration_1 = require("../../syntax/duration");
const exception_checks_1 = require("./exception-checks");
const document_schema_2 = require("./document-schema");
const unknown_kind_1 = require("./unknown-kind");
const rules_1 = require("../rules");
const indentation_hints_1 = require("./indentation-hints");
const document_problems_1 = require("./document-problems");
const compile_policy_1 = require("./compile-policy");
const compile_exception_1 = require("./compile-exception");
const shared_parts_1 = require("./shared-parts");
/** DOCUMENT_SCHEMAS, precompiled (scripts/build-validators.js). */
const validators = {
    Policy: document_schema_1.validatePolicy,
    Exception: document_schema_1.validateException,
    EnvironmentAliases: document_schema_1.validateAliases,
    ExceptionSettings: document_schema_1.validateExceptionSettings,
};
/**
 * Validates one YAML document against its kind's schema, then compiles it; problems are located.
 * The same whenever it is compiled: what depends on the time is staleWarnings. `shared` is shared
 * by the documents of one load.
 */
function compileDocument(doc, shared = (0, shared_parts_1.sharedParts)()) {
    const problems = new document_problems_1.DocumentProblems(doc);
    const value = doc.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        problems.add([], 'a policy document must be a mapping with a `kind`');
        return { problems: problems.list };
    }
    const kind = value.kind;
    // Own keys only: `kind: toString` must be an unknown kind, not a member of Object.prototype.
    if (typeof kind !== 'string' || !Object.hasOwn(document_schema_2.DOCUMENT_SCHEMAS, kind)) {
        problems.add(kind === undefined ? [] : ['kind'], (0, unknown_kind_1.unknownKindMessage)(kind, value, doc.file));
        return { problems: problems.list };
    }
    const validate = validators[kind];
    if (!validate(value)) {
        const hint = (0, indentation_hints_1.indentationHint)(value);
        for (const e of (0, schema_suggestion_1.onePerMistake)((0, field_errors_1.toLocatedErrors)(validate.errors, (0, field_errors_1.validated)(validate, value)), FIELD_NAMES)) {
            const message = e.unknownKey !== undefined && e.path.at(-3) === 'rules'
                ? `unknown rule kind "${e.unknownKey}"; known kinds: ${[...rules_1.RULES_BY_KEY.keys()].join(', ')}`
                : kind === 'Exception'
                    ? withExceptionHint(e.message)
                    : e.message;
            problems.schema(e.path, hint(e.path, `${message}${(0, schema_suggestion_1.schemaSuggestion)(e, FIELD_NAMES, e.path.at(-3) !== 'rules')}`), e.atKey === true, e.syntax === true);
        }
    }
    const compiled = compileKind(kind, value, doc, shared, problems);
    if (problems.hasErrors || compiled === undefined)
        return { problems: problems.list };
    return { compiled, problems: problems.list };
}
/** Every field name the document schemas know (`createdBy`, `approverNotStarter`, ...): what a misspelt key is compared with. */
const FIELD_NAMES = (0, schema_suggestion_1.fieldNamesOf)(Object.values(document_schema_2.DOCUMENT_SCHEMAS));
/** `reason is required` -> the same, with what to write (exception-checks.ts). */
function withExceptionHint(message) {
    const field = /^(\w+) is required$/.exec(message)?.[1];
    const hint = field === undefined ? undefined : exception_checks_1.EXCEPTION_FIELD_HINTS[field];
    return hint === undefined ? message : `${message}: ${hint}`;
}
function compileKind(kind, value, doc, shared, problems) {
    switch (kind) {
        case 'Policy': {
            const policy = (0, compile_policy_1.compilePolicy)(value, doc, shared, problems);
            return policy && { kind: 'Policy', policy };
        }
        case 'Exception': {
            const exception = (0, compile_exception_1.compileException)(value, doc, shared, problems);
            return exception && { kind: 'Exception', exception };
        }
        case 'EnvironmentAliases':
            return { kind: 'EnvironmentAliases', aliases: value.aliases };
        case 'ExceptionSettings': {
            const { maxDuration, approverNotStarter } = value;
            const settings = {
                maxDurationMs: (0, duration_1.parseDuration)(maxDuration) ?? 0,
                maxDuration,
                approverNotStarter: approverNotStarter === true,
                source: { file: doc.file, ...doc.locate([]) },
            };
            // A missing or malformed maxDuration is the schema's error (or a misspelt key's did-you-mean), said once.
            const parsed = typeof maxDuration === 'string' ? (0, duration_1.parseDuration)(maxDuration) : undefined;
            if (parsed !== undefined && parsed <= 0)
                problems.add(['maxDuration'], 'maxDuration must be longer than 0 (e.g. 7d)');
            return { kind: 'ExceptionSettings', settings };
        }
    }
}
/** The parts of a compiled policy that can no longer apply at `now` (an ended freeze), as warnings at `place`. */
function staleWarnings(policy, now, place) {
    return policy.rules.flatMap((rule, i) => (rule.staleParts?.(now) ?? []).map((part) => {
        const path = ['rules', i, rule.kind, ...part.path.map((p) => (/^\d+$/.test(p) ? Number(p) : p))];
        return {
            file: place.file,
            ...place.locate(path),
            path: (0, field_path_1.pathText)(path),
            message: part.message,
            severity: 'warning',
        };
    }));
}
//# sourceMappingURL=compile-document.js.map