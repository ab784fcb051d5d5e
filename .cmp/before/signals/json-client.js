"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.toJsonAnswer = toJsonAnswer;
exports.fetchJson = fetchJson;
const http_get_json_1 = require("./http-get-json");
/** An HTTP answer as a `json` rule reads it: 2xx/3xx with its JSON, anything else an error naming the status. */
function toJsonAnswer(http, readAt) {
    if (!http.ok)
        return { readAt, error: http.error };
    if (http.status < 200 || http.status > 399)
        return { readAt, error: `HTTP ${http.status}: ${JSON.stringify(http.body).slice(0, 200)}` };
    return { readAt, status: http.status, body: http.body };
}
/** `GET <source url><path>` with the source's auth, CA and the signal timeout. */
async function fetchJson(source, path, timeoutMs, clock) {
    const http = await (0, http_get_json_1.httpGetJson)(source, path, timeoutMs);
    return (0, http_get_json_1.fetched)(http, toJsonAnswer(http, clock().toISOString()));
}
//# sourceMappingURL=json-client.js.map