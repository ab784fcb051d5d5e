"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_ANSWER_BYTES = void 0;
exports.httpGetText = httpGetText;
exports.httpGetJson = httpGetJson;
exports.fetched = fetched;
const body_excerpt_1 = require("./body-excerpt");
const node_http_1 = require("node:http");
const node_https_1 = require("node:https");
/** The most a source's answer may hold (a list of thousands of alerts fits many times). */
exports.MAX_ANSWER_BYTES = 32 * 1024 * 1024;
function headers(source, accept) {
    const out = { accept, 'user-agent': 'preflight-gate' };
    if (source.auth?.type === 'bearer')
        out.authorization = `Bearer ${source.auth.token}`;
    if (source.auth?.type === 'header')
        out[source.auth.name.toLowerCase()] = source.auth.value;
    if (source.auth?.type === 'basic')
        out.authorization = `Basic ${Buffer.from(`${source.auth.username}:${source.auth.password}`).toString('base64')}`;
    return out;
}
function readBody(res, limit) {
    return new Promise((resolve) => {
        const chunks = [];
        let size = 0;
        res.on('data', (chunk) => {
            size += chunk.length;
            if (size > limit) {
                res.destroy();
                resolve(`the answer is larger than ${limit} bytes`);
            }
            else
                chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks)));
        res.on('error', (err) => resolve(err.message));
    });
}
/**
 * GET `path` (with its query) from a source, within `timeoutMs` for the whole exchange. TLS uses the
 * source's CA when it has one (node:https, since fetch cannot take a CA without another library).
 */
function httpGetText(source, path, timeoutMs, accept) {
    const url = new URL(source.url + path);
    const request = url.protocol === 'https:' ? node_https_1.request : node_http_1.request;
    return new Promise((resolve) => {
        let done = false;
        const finish = (answer) => {
            if (done)
                return;
            done = true;
            clearTimeout(timer);
            resolve(answer);
        };
        const req = request(url, { method: 'GET', headers: headers(source, accept), ca: source.ca, agent: false }, (res) => {
            void readBody(res, exports.MAX_ANSWER_BYTES).then((body) => {
                if (typeof body === 'string')
                    return finish({ ok: false, timedOut: false, error: body });
                finish({ ok: true, status: res.statusCode ?? 0, text: body.toString('utf8') });
            });
        });
        const timer = setTimeout(() => {
            finish({ ok: false, timedOut: true, error: `no answer within ${timeoutMs} ms` });
            req.destroy();
        }, timeoutMs);
        req.on('error', (err) => finish({ ok: false, timedOut: false, error: err.message || String(err) }));
        req.end();
    });
}
/** GET `path` from a source and parse its JSON; an answer that is not JSON is an error naming its start. */
async function httpGetJson(source, path, timeoutMs) {
    const http = await httpGetText(source, path, timeoutMs, 'application/json');
    if (!http.ok)
        return http;
    try {
        return { ok: true, status: http.status, body: JSON.parse(http.text) };
    }
    catch {
        return {
            ok: false,
            timedOut: false,
            error: `HTTP ${http.status}: the answer is not JSON (${(0, body_excerpt_1.bodyExcerpt)(http.text)})`,
        };
    }
}
function fetched(http, answer) {
    const outcome = !http.ok && http.timedOut ? 'timeout' : 'error' in answer ? 'error' : 'ok';
    return { answer, outcome };
}
//# sourceMappingURL=http-get-json.js.map