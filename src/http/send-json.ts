import type { ServerResponse } from 'node:http';

/**
 * Answers with a JSON body, as Express's res.json does (same content type, no ETag). When an
 * answer was already started the connection is cut instead: a half-sent answer must never read
 * as a 2xx.
 *
 * `headers` (name, value, name, value, ...) go first, then the content type and length, all in
 * one writeHead: a header set before with setHeader makes Node merge the two lists header by
 * header (validated and lower-cased again) for every answer.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: readonly string[] = []): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, [
    ...headers,
    'Content-Type',
    'application/json; charset=utf-8',
    'Content-Length',
    String(Buffer.byteLength(text)),
  ]);
  res.end(text);
}
