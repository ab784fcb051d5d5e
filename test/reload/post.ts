import { request } from 'node:http';

export interface PostAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  method: 'GET' | 'POST',
  url: string,
  body: string | Buffer,
  headers: Record<string, string>,
): Promise<PostAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * POSTs raw bytes on a fresh connection (no keep-alive pool), so a server closing an idle
 * socket can never be mistaken for a failed request.
 */
export function post(url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<PostAnswer> {
  return send('POST', url, body, { 'content-type': 'application/json', ...headers });
}

export async function getJson<T = Record<string, unknown>>(url: string): Promise<{ status: number; body: T }> {
  const res = await send('GET', url, '', {});
  return { status: res.status, body: JSON.parse(res.body) as T };
}

export async function getText(url: string): Promise<string> {
  return (await send('GET', url, '', {})).body;
}
