"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_VALIDATION_NESTING = void 0;
exports.validatePayload = validatePayload;
exports.validatePreflightPayload = validatePreflightPayload;
exports.describeFieldErrors = describeFieldErrors;
const field_errors_1 = require("../validation/field-errors");
const webhook_payload_schema_1 = require("./generated/webhook-payload-schema");
const types_1 = require("./types");
const json_object_1 = require("../common/json-object");
/**
 * How deep `validations` may nest inside a step. Steadybit's schema nests them one level (a
 * service validation's actions); deeper nesting is still read as actions, up to this bound, so
 * every walk over a run's steps (the engine's, the audit line's) has a bounded depth.
 */
exports.MAX_VALIDATION_NESTING = 32;
/**
 * The step whose validations nest deeper than MAX_VALIDATION_NESTING, level by level without
 * recursion: a 1 MB body can nest tens of thousands of levels, and a walk that recursed would
 * end in a stack overflow (an internal error) instead of this message.
 */
function overNested(body) {
    const steps = (0, json_object_1.isJsonObject)(body) && (0, json_object_1.isJsonObject)(body.execution) ? body.execution.steps : undefined;
    if (!Array.isArray(steps))
        return undefined;
    for (let i = 0; i < steps.length; i++) {
        let level = [steps[i]];
        for (let depth = 0; level.length > 0; depth++) {
            if (depth > exports.MAX_VALIDATION_NESTING) {
                return {
                    path: `execution.steps[${i}]`,
                    message: `nests validations inside validations more than ${exports.MAX_VALIDATION_NESTING} levels deep (Steadybit nests them one level)`,
                };
            }
            const next = [];
            for (const step of level) {
                if ((0, json_object_1.isJsonObject)(step) && Array.isArray(step.validations))
                    for (const v of step.validations)
                        next.push(v);
            }
            level = next;
        }
    }
    return undefined;
}
/** Validates any webhook payload (preflight, execution progress, kill switch). */
function validatePayload(body) {
    const nesting = overNested(body);
    if (nesting)
        return { ok: false, errors: [nesting] };
    if ((0, webhook_payload_schema_1.validateWebhookPayload)(body))
        return { ok: true, payload: body };
    return { ok: false, errors: (0, field_errors_1.toFieldErrors)(webhook_payload_schema_1.validateWebhookPayload.errors, (0, field_errors_1.validated)(webhook_payload_schema_1.validateWebhookPayload, body)) };
}
/** A payload a decision can be made on: valid, the preflight event, and an execution. */
function validatePreflightPayload(body) {
    const result = validatePayload(body);
    if (!result.ok)
        return result;
    const { payload } = result;
    if (payload.event !== types_1.PREFLIGHT_EVENT) {
        return { ok: false, errors: [{ path: 'event', message: `must be "${types_1.PREFLIGHT_EVENT}", got "${payload.event}"` }] };
    }
    if (payload.execution === undefined) {
        return { ok: false, errors: [{ path: 'execution', message: 'is required for a preflight decision' }] };
    }
    return { ok: true, payload: payload };
}
function describeFieldErrors(errors, max = 5) {
    const shown = errors.slice(0, max).map((e) => `${e.path} ${e.message}`);
    const more = errors.length > max ? ` (and ${errors.length - max} more)` : '';
    return shown.join('; ') + more;
}
//# sourceMappingURL=validate-payload.js.map