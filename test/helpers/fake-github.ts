import { createServer, type IncomingMessage, type Server } from 'node:http';

/**
 * GitHub's REST API for issue comments, as far as `pr-comment` uses it, on 127.0.0.1
 * (docs.github.com/rest/issues/comments): list (paged by `per_page`/`page` with a Link header),
 * create, edit. Requests must carry the token as `Bearer`, GitHub's media type and a JSON body
 * of exactly `{ "body": string }`; anything else is answered as GitHub would (401, 404, 422).
 */
export interface FakeComment {
  id: number;
  body: string;
  html_url: string;
  user: { login: string };
}

export interface FakeGitHub {
  url: string;
  /** Comments by issue (pull request) number. */
  comments: Map<number, FakeComment[]>;
  requests: Array<{ method: string; path: string }>;
  /** Answer every write with this status (403: a fork's read-only token). */
  refuseWrites?: number;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

export async function startFakeGitHub(opts: {
  token: string;
  repository: string;
  perPageMax?: number;
}): Promise<FakeGitHub> {
  let nextId = 1000;
  const fake = { comments: new Map<number, FakeComment[]>(), requests: [] } as unknown as FakeGitHub;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      fake.requests.push({ method: req.method ?? '', path: `${url.pathname}${url.search}` });
      const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(value));
      };
      if (req.headers.authorization !== `Bearer ${opts.token}`) return send(401, { message: 'Bad credentials' });
      if (req.headers.accept !== 'application/vnd.github+json' || !req.headers['user-agent'])
        return send(400, { message: 'expected the GitHub media type and a User-Agent' });
      const prefix = `/repos/${opts.repository}/issues/`;
      if (!url.pathname.startsWith(prefix)) return send(404, { message: 'Not Found' });
      const rest = url.pathname.slice(prefix.length).split('/');
      const write = req.method === 'POST' || req.method === 'PATCH';
      const body = write ? await bodyOf(req) : undefined;
      if (write && fake.refuseWrites)
        return send(fake.refuseWrites, { message: 'Resource not accessible by integration' });
      if (
        write &&
        (typeof body !== 'object' ||
          body === null ||
          Object.keys(body).join() !== 'body' ||
          typeof (body as { body: unknown }).body !== 'string')
      ) {
        return send(422, { message: 'Validation Failed' });
      }
      const text = (body as { body: string } | undefined)?.body ?? '';
      if (rest.length === 2 && rest[1] === 'comments') {
        const issue = Number(rest[0]);
        const list = fake.comments.get(issue) ?? [];
        if (req.method === 'GET') {
          const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), opts.perPageMax ?? 100);
          const page = Number(url.searchParams.get('page') ?? 1);
          const last = Math.max(1, Math.ceil(list.length / perPage));
          const link: Record<string, string> =
            page < last
              ? {
                  link: `<${fake.url}${url.pathname}?per_page=${perPage}&page=${page + 1}>; rel="next", <${fake.url}${url.pathname}?per_page=${perPage}&page=${last}>; rel="last"`,
                }
              : {};
          return send(200, list.slice((page - 1) * perPage, page * perPage), link);
        }
        if (req.method === 'POST') {
          const comment = {
            id: nextId++,
            body: text,
            html_url: `https://github.example/${opts.repository}/pull/${issue}#issuecomment-${nextId}`,
            user: { login: 'github-actions[bot]' },
          };
          fake.comments.set(issue, [...list, comment]);
          return send(201, comment);
        }
      }
      if (rest.length === 2 && rest[0] === 'comments' && req.method === 'PATCH') {
        const comment = [...fake.comments.values()].flat().find((c) => c.id === Number(rest[1]));
        if (!comment) return send(404, { message: 'Not Found' });
        comment.body = text;
        return send(200, comment);
      }
      return send(404, { message: 'Not Found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  fake.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

/** A human's comment, or another bot's. */
export function someComment(id: number, body: string, login = 'octocat'): FakeComment {
  return { id, body, html_url: `https://github.example/c/${id}`, user: { login } };
}
