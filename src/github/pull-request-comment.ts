/**
 * One comment per pull request that a report keeps up to date (the replay report of the GitHub
 * Action): found by a hidden marker on its first line, edited in place; created when there is none.
 * GitHub's REST API (issues comments: a pull request is an issue for comments), with the token the
 * workflow gives. Outcomes are values: GitHub refusing is not a bug.
 */
export interface CommentTarget {
  /** GITHUB_API_URL: https://api.github.com, or a GitHub Enterprise Server's /api/v3. */
  api: string;
  /** GITHUB_REPOSITORY: owner/name. */
  repository: string;
  pullRequest: number;
  token: string;
}

export type CommentOutcome =
  | { ok: true; action: 'created' | 'updated'; url: string }
  | { ok: false; status: number; message: string };

type Fetch = typeof fetch;

/** The hidden first line that names a report's comment: `<!-- preflight-gate: replay policies -->`. */
export const commentMarker = (key: string): string => `<!-- preflight-gate: ${key.replace(/--+/g, '-')} -->`;

/** `<...>; rel="next"` of a Link header, if any. */
export function nextPage(link: string | null): string | undefined {
  return link
    ?.split(',')
    .map((part) => /<([^>]+)>\s*;\s*rel="next"/.exec(part)?.[1])
    .find((url) => url !== undefined);
}

async function refusal(res: Response, what: string): Promise<CommentOutcome> {
  const text = await res.text();
  let message = text.slice(0, 300);
  try {
    message = String((JSON.parse(text) as { message?: unknown }).message ?? message);
  } catch {
    // Not JSON (a proxy's page): its first characters say enough.
  }
  const hint =
    res.status === 403 || res.status === 404
      ? ' (the token may not write to pull requests: give the job `permissions: pull-requests: write`; a pull request from a fork gets a read-only token)'
      : '';
  return { ok: false, status: res.status, message: `GitHub answered ${res.status} to ${what}: ${message}${hint}` };
}

/** Creates the comment or edits the one that carries `marker`; `body` is written after the marker. */
export async function upsertComment(
  target: CommentTarget,
  marker: string,
  body: string,
  fetchFn: Fetch = fetch,
): Promise<CommentOutcome> {
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
  let page: string | undefined = `${issue}/comments?per_page=100`;
  while (page !== undefined) {
    const res = await fetchFn(page, { headers });
    if (!res.ok) return refusal(res, `listing the comments of pull request #${target.pullRequest}`);
    const comments = (await res.json()) as Array<{ id: number; body?: string }>;
    const mine = comments.find((c) => c.body?.startsWith(marker));
    if (mine) {
      const edit = await fetchFn(`${api}/repos/${target.repository}/issues/comments/${mine.id}`, {
        method: 'PATCH',
        headers,
        body: text,
      });
      if (!edit.ok) return refusal(edit, `editing comment ${mine.id}`);
      return { ok: true, action: 'updated', url: ((await edit.json()) as { html_url: string }).html_url };
    }
    page = nextPage(res.headers.get('link'));
  }
  const created = await fetchFn(`${issue}/comments`, { method: 'POST', headers, body: text });
  if (!created.ok) return refusal(created, `commenting on pull request #${target.pullRequest}`);
  return { ok: true, action: 'created', url: ((await created.json()) as { html_url: string }).html_url };
}
