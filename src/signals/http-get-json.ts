import { bodyExcerpt } from './body-excerpt';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { SignalSource } from './signal-source';

/** What one GET gave: parsed JSON with its status, or why there is none (a value, never thrown). */
export type HttpAnswer = { ok: true; status: number; body: unknown } | { ok: false; timedOut: boolean; error: string };

/** The most a source's answer may hold (a list of thousands of alerts fits many times). */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

function headers(source: SignalSource, accept: string): Record<string, string> {
  const out: Record<string, string> = { accept, 'user-agent': 'preflight-gate' };
  if (source.auth?.type === 'bearer') out.authorization = `Bearer ${source.auth.token}`;
  if (source.auth?.type === 'header') out[source.auth.name.toLowerCase()] = source.auth.value;
  if (source.auth?.type === 'basic')
    out.authorization = `Basic ${Buffer.from(`${source.auth.username}:${source.auth.password}`).toString('base64')}`;
  return out;
}

function readBody(res: IncomingMessage, limit: number): Promise<Buffer | string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        res.destroy();
        resolve(`the answer is larger than ${limit} bytes`);
      } else chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', (err) => resolve(err.message));
  });
}

/** What one GET gave as text: the status and the body, or why there is none (a value, never thrown). */
export type HttpText = { ok: true; status: number; text: string } | { ok: false; timedOut: boolean; error: string };

/**
 * GET `path` (with its query) from a source, within `timeoutMs` for the whole exchange. TLS uses the
 * source's CA when it has one (node:https, since fetch cannot take a CA without another library).
 */
export function httpGetText(source: SignalSource, path: string, timeoutMs: number, accept: string): Promise<HttpText> {
  const url = new URL(source.url + path);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let done = false;
    const finish = (answer: HttpText) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const req = request(
      url,
      { method: 'GET', headers: headers(source, accept), ca: source.ca, agent: false },
      (res) => {
        void readBody(res, MAX_ANSWER_BYTES).then((body) => {
          if (typeof body === 'string') return finish({ ok: false, timedOut: false, error: body });
          finish({ ok: true, status: res.statusCode ?? 0, text: body.toString('utf8') });
        });
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, timedOut: true, error: `no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err) => finish({ ok: false, timedOut: false, error: err.message || String(err) }));
    req.end();
  });
}

/** GET `path` from a source and parse its JSON; an answer that is not JSON is an error naming its start. */
export async function httpGetJson(source: SignalSource, path: string, timeoutMs: number): Promise<HttpAnswer> {
  const http = await httpGetText(source, path, timeoutMs, 'application/json');
  if (!http.ok) return http;
  try {
    return { ok: true, status: http.status, body: JSON.parse(http.text) as unknown };
  } catch {
    return {
      ok: false,
      timedOut: false,
      error: `HTTP ${http.status}: the answer is not JSON (${bodyExcerpt(http.text)})`,
    };
  }
}

/** How a query went, as the metrics count it. */
export type QueryOutcome = 'ok' | 'error' | 'timeout';

/** An answer and how its query went. */
export interface Fetched<A> {
  answer: A;
  outcome: QueryOutcome;
}

export function fetched<A extends object>(http: { ok: boolean; timedOut?: boolean }, answer: A): Fetched<A> {
  const outcome: QueryOutcome = !http.ok && http.timedOut ? 'timeout' : 'error' in answer ? 'error' : 'ok';
  return { answer, outcome };
}
