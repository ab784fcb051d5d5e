"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.commentMarker = void 0;
exports.nextPage = nextPage;
exports.upsertComment = upsertComment;
/** The hidden first line that names a report's comment: `<!-- preflight-gate: replay policies -->`. */
const commentMarker = (key) => `<!-- preflight-gate: ${key.replace(/--+/g, '-')} -->`;
exports.commentMarker = commentMarker;
/** `<...>; rel="next"` of a Link header, if any. */
function nextPage(link) {
    return link
        ?.split(',')
        .map((part) => /<([^>]+)>\s*;\s*rel="next"/.exec(part)?.[1])
        .find((url) => url !== undefined);
}
async function refusal(res, what) {
    const text = await res.text();
    let message = text.slice(0, 300);
    try {
        message = String(JSON.parse(text).message ?? message);
    }
    catch {
        // Not JSON (a proxy's page): its first characters say enough.
    }
    const hint = res.status === 403 || res.status === 404
        ? ' (the token may not write to pull requests: give the job `permissions: pull-requests: write`; a pull request from a fork gets a read-only token)'
        : '';
    return { ok: false, status: res.status, message: `GitHub answered ${res.status} to ${what}: ${message}${hint}` };
}
/** Creates the comment or edits the one that carries `marker`; `body` is written after the marker. */
async function upsertComment(target, marker, body, fetchFn = fetch) {
    const headers = {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${target.token}`,
        'content-type': 'application/json',
        'user-agent': 'preflight-gate',
        'x-github-api-version': '2022-11-28',
    };
    const api = target.api.replace(/\/+$/, '');
    const issue = `${api}/repos/${target.repository}/issues/${target.pullRequest}`;
    const text = JSON.stringify({ body: `${marker}\n${body}` });
    let page = `${issue}/comments?per_page=100`;
    while (page !== undefined) {
        const res = await fetchFn(page, { headers });
        if (!res.ok)
            return refusal(res, `listing the comments of pull request #${target.pullRequest}`);
        const comments = (await res.json());
        const mine = comments.find((c) => c.body?.startsWith(marker));
        if (mine) {
            const edit = await fetchFn(`${api}/repos/${target.repository}/issues/comments/${mine.id}`, {
                method: 'PATCH',
                headers,
                body: text,
            });
            if (!edit.ok)
                return refusal(edit, `editing comment ${mine.id}`);
            return { ok: true, action: 'updated', url: (await edit.json()).html_url };
        }
        page = nextPage(res.headers.get('link'));
    }
    const created = await fetchFn(`${issue}/comments`, { method: 'POST', headers, body: text });
    if (!created.ok)
        return refusal(created, `commenting on pull request #${target.pullRequest}`);
    return { ok: true, action: 'created', url: (await created.json()).html_url };
}
//# sourceMappingURL=pull-request-comment.js.map