"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.toQueryAnswer = toQueryAnswer;
exports.fetchQuery = fetchQuery;
const http_get_json_1 = require("./http-get-json");
const sample_value_1 = require("../syntax/sample-value");
const isRecord = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Prometheus' instant-query envelope -> the answer a rule reads; an error envelope or odd shape is an error. */
function toQueryAnswer(http, readAt) {
    if (!http.ok)
        return { readAt, error: http.error };
    const body = http.body;
    if (isRecord(body) && body.status === 'error') {
        const answer = {
            readAt,
            error: `${String(body.errorType ?? 'error')}: ${String(body.error ?? `HTTP ${http.status}`)}`,
        };
        if (body.errorType === 'bad_data')
            answer.badQuery = true;
        return answer;
    }
    if (http.status < 200 || http.status > 299)
        return { readAt, error: `HTTP ${http.status}: ${JSON.stringify(body).slice(0, 200)}` };
    if (!isRecord(body) || body.status !== 'success' || !isRecord(body.data))
        return { readAt, error: 'the answer is not a Prometheus query result (is this the Prometheus HTTP API?)' };
    const { resultType, result } = body.data;
    if (resultType === 'vector' && Array.isArray(result)) {
        const odd = result.find((s) => !isRecord(s) || !Array.isArray(s.value) || (0, sample_value_1.sampleValue)(s.value[1]) === undefined);
        if (odd !== undefined)
            return { readAt, error: `a sample value is not a number: ${JSON.stringify(odd).slice(0, 200)}` };
        return { readAt, resultType, result: result };
    }
    if (resultType === 'scalar' && Array.isArray(result)) {
        if ((0, sample_value_1.sampleValue)(result[1]) === undefined)
            return { readAt, error: `the scalar value is not a number: ${JSON.stringify(result).slice(0, 200)}` };
        return { readAt, resultType, result: result };
    }
    if (resultType === 'matrix' || resultType === 'string')
        return { readAt, resultType, result };
    return { readAt, error: `unexpected result type ${JSON.stringify(resultType)}` };
}
/**
 * `GET /api/v1/query?query=...` at the server's current time. Prometheus is told the same timeout,
 * so it stops evaluating when we stop waiting.
 */
async function fetchQuery(source, query, timeoutMs, clock) {
    const params = new URLSearchParams({ query, timeout: `${Math.max(1, Math.floor(timeoutMs / 1000))}s` });
    const http = await (0, http_get_json_1.httpGetJson)(source, `/api/v1/query?${params}`, timeoutMs);
    return (0, http_get_json_1.fetched)(http, toQueryAnswer(http, clock().toISOString()));
}
//# sourceMappingURL=prometheus-client.js.map