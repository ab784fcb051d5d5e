import type { ServerResponse } from 'node:http';
import type { Metrics } from './metrics';

/** preflight_request_duration_seconds{route, status} of one request, observed when its answer is finished. */
export function timeRequest(metrics: Metrics, route: string, res: ServerResponse): void {
  const end = metrics.requestDuration.startTimer({ route });
  res.once('finish', () => end({ status: String(res.statusCode) }));
}
