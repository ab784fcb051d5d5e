import type { Server, ServerResponse } from 'node:http';

/**
 * Graceful stop for an HTTP server: stop accepting connections, let every request in flight finish
 * with its answer, then resolve. Answers sent while stopping carry `Connection: close`, so a
 * keep-alive client does not hold the process open until its idle timeout; after `timeoutMs` the
 * connections still open are cut.
 *
 * Call it right after creating the server: it tracks the responses in flight from then on.
 */
export function gracefulCloser(server: Server): (timeoutMs: number) => Promise<void> {
  const inFlight = new Set<ServerResponse>();
  let closing = false;
  const closeWhenAnswered = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  server.on('request', (_req, res: ServerResponse) => {
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    // A request that arrives on an open keep-alive connection while stopping is still answered.
    if (closing) closeWhenAnswered(res);
  });

  return (timeoutMs) => new Promise<void>((resolve) => {
    closing = true;
    for (const res of inFlight) closeWhenAnswered(res);
    const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
