import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the fake answers one request: a status (and headers), or never (`hang`). */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface FakeReceiver {
  url: string;
  received: Received[];
  /** Answers for the next requests, in order; after them, `fallback`. */
  script(...answers: Answer[]): void;
  /** Checks every body as it arrives; a failure answers 400 with the problem and is kept in `problems`. */
  problems: string[];
  close(): Promise<void>;
}

/**
 * A receiver on 127.0.0.1 (a free port) that records every request and answers as scripted. With
 * `check`, it validates each body the way the real service would (a schema, a signature) and
 * refuses a bad one with 400, as Slack, Teams and a signed receiver do.
 */
export async function startFakeReceiver(
  opts: { check?: (r: Received) => string | undefined; fallback?: Answer } = {},
): Promise<FakeReceiver> {
  const received: Received[] = [];
  const problems: string[] = [];
  const answers: Answer[] = [];
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(r);
      const problem = opts.check?.(r);
      if (problem !== undefined) {
        problems.push(problem);
        res.writeHead(400, { 'content-type': 'text/plain' }).end(problem);
        return;
      }
      const answer = answers.shift() ?? opts.fallback ?? { status: 200 };
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(answer.status, answer.headers).end(answer.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    problems,
    script: (...next) => {
      answers.push(...next);
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
