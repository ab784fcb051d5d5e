import { fetched, httpGetJson, type Fetched, type HttpAnswer } from './http-get-json';
import type { JsonAnswer } from '../policy/facts/signal-facts';
import type { SignalSource } from './signal-source';

/** An HTTP answer as a `json` rule reads it: 2xx/3xx with its JSON, anything else an error naming the status. */
export function toJsonAnswer(http: HttpAnswer, readAt: string): JsonAnswer {
  if (!http.ok) return { readAt, error: http.error };
  if (http.status < 200 || http.status > 399)
    return { readAt, error: `HTTP ${http.status}: ${JSON.stringify(http.body).slice(0, 200)}` };
  return { readAt, status: http.status, body: http.body };
}

/** `GET <source url><path>` with the source's auth, CA and the signal timeout. */
export async function fetchJson(
  source: SignalSource,
  path: string,
  timeoutMs: number,
  clock: () => Date,
): Promise<Fetched<JsonAnswer>> {
  const http = await httpGetJson(source, path, timeoutMs);
  return fetched(http, toJsonAnswer(http, clock().toISOString()));
}
