import type { ApiFailure, PlatformClient } from './platform-client';

/**
 * What POST /api/experiments/executions/{id}/cancel (cancelExperimentExecution) answered:
 * `accepted` (202: the run is being stopped), `ended` (200: "already canceled, errored or
 * completed"), `not-found` (404), or a failure (429 and 5xx after the client's retries, a timeout,
 * a refused token).
 */
export type CancelOutcome =
  | { ok: true; outcome: 'accepted' | 'ended' | 'not-found' }
  | { ok: false; failure: ApiFailure };

/** Execution ids are int64 in the path: digits only, so nothing else reaches the URL. */
export const isExecutionId = (id: string): boolean => /^\d{1,19}$/.test(id);

/**
 * Cancels a running execution. The client waits out a 429 (Retry-After / RateLimit-Reset) and
 * retries 5xx and network errors with backoff while `deadlineMs` allows; Steadybit answers 200 to a
 * second cancel of the same run, so a retry after a timeout cannot do harm.
 */
export async function cancelExecution(client: PlatformClient, id: string, deadlineMs: number): Promise<CancelOutcome> {
  if (!isExecutionId(id))
    return { ok: false, failure: { outcome: 'rejected', message: `"${id}" is not an execution id` } };
  const res = await client.call({
    endpoint: 'cancel',
    method: 'POST',
    path: `/api/experiments/executions/${id}/cancel`,
    deadlineMs,
    statusOnly: true,
  });
  if (res.ok) return { ok: true, outcome: res.status === 200 ? 'ended' : 'accepted' };
  if (res.failure.status === 404) return { ok: true, outcome: 'not-found' };
  return res;
}
