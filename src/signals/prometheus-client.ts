import { fetched, httpGetJson, type Fetched, type HttpAnswer } from './http-get-json';
import { sampleValue } from '../syntax/sample-value';
import type { QueryAnswer } from '../policy/facts/signal-facts';
import type { SignalSource } from './signal-source';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Prometheus' instant-query envelope -> the answer a rule reads; an error envelope or odd shape is an error. */
export function toQueryAnswer(http: HttpAnswer, readAt: string): QueryAnswer {
  if (!http.ok) return { readAt, error: http.error };
  const body = http.body;
  if (isRecord(body) && body.status === 'error') {
    const answer: QueryAnswer = {
      readAt,
      error: `${String(body.errorType ?? 'error')}: ${String(body.error ?? `HTTP ${http.status}`)}`,
    };
    if (body.errorType === 'bad_data') answer.badQuery = true;
    return answer;
  }
  if (http.status < 200 || http.status > 299)
    return { readAt, error: `HTTP ${http.status}: ${JSON.stringify(body).slice(0, 200)}` };
  if (!isRecord(body) || body.status !== 'success' || !isRecord(body.data))
    return { readAt, error: 'the answer is not a Prometheus query result (is this the Prometheus HTTP API?)' };
  const { resultType, result } = body.data;
  if (resultType === 'vector' && Array.isArray(result)) {
    const odd = result.find(
      (s: unknown) => !isRecord(s) || !Array.isArray(s.value) || sampleValue(s.value[1] as string) === undefined,
    );
    if (odd !== undefined)
      return { readAt, error: `a sample value is not a number: ${JSON.stringify(odd).slice(0, 200)}` };
    return { readAt, resultType, result: result as Extract<QueryAnswer, { resultType: 'vector' }>['result'] };
  }
  if (resultType === 'scalar' && Array.isArray(result)) {
    if (sampleValue(result[1] as string) === undefined)
      return { readAt, error: `the scalar value is not a number: ${JSON.stringify(result).slice(0, 200)}` };
    return { readAt, resultType, result: result as [number, string] };
  }
  if (resultType === 'matrix' || resultType === 'string') return { readAt, resultType, result };
  return { readAt, error: `unexpected result type ${JSON.stringify(resultType)}` };
}

/**
 * `GET /api/v1/query?query=...` at the server's current time. Prometheus is told the same timeout,
 * so it stops evaluating when we stop waiting.
 */
export async function fetchQuery(
  source: SignalSource,
  query: string,
  timeoutMs: number,
  clock: () => Date,
): Promise<Fetched<QueryAnswer>> {
  const params = new URLSearchParams({ query, timeout: `${Math.max(1, Math.floor(timeoutMs / 1000))}s` });
  const http = await httpGetJson(source, `/api/v1/query?${params}`, timeoutMs);
  return fetched(http, toQueryAnswer(http, clock().toISOString()));
}
