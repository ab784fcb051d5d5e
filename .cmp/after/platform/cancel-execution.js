"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isExecutionId = void 0;
exports.cancelExecution = cancelExecution;
/** Execution ids are int64 in the path: digits only, so nothing else reaches the URL. */
const isExecutionId = (id) => /^\d{1,19}$/.test(id);
exports.isExecutionId = isExecutionId;
/**
 * Cancels a running execution. The client waits out a 429 (Retry-After / RateLimit-Reset) and
 * retries 5xx and network errors with backoff while `deadlineMs` allows; Steadybit answers 200 to a
 * second cancel of the same run, so a retry after a timeout cannot do harm.
 */
async function cancelExecution(client, id, deadlineMs) {
    if (!(0, exports.isExecutionId)(id))
        return { ok: false, failure: { outcome: 'rejected', message: `"${id}" is not an execution id` } };
    const res = await client.call({
        endpoint: 'cancel',
        method: 'POST',
        path: `/api/experiments/executions/${id}/cancel`,
        deadlineMs,
        statusOnly: true,
    });
    if (res.ok)
        return { ok: true, outcome: res.status === 200 ? 'ended' : 'accepted' };
    if (res.failure.status === 404)
        return { ok: true, outcome: 'not-found' };
    return res;
}
//# sourceMappingURL=cancel-execution.js.map