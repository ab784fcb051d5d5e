import { Agent, request } from 'node:http';
import { rawPayload } from '../helpers/fixtures';
import { startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';

type Outcome = { kind: 'answer'; status: number; closes: boolean } | { kind: 'error'; code: string };

/** One POST /preflight on the agent's keep-alive connections. */
function post(port: number, agent: Agent, body: Buffer): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/preflight',
        agent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': body.length },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            kind: 'answer',
            status: res.statusCode ?? 0,
            closes: /close/i.test(String(res.headers.connection)),
          }),
        );
        res.on('error', (err: NodeJS.ErrnoException) => resolve({ kind: 'error', code: err.code ?? err.message }));
      },
    );
    // A reused connection is one the client holds open; a new one after the signal is refused, not reset.
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({
        kind: 'error',
        code: `${err.code ?? err.message}${req.reusedSocket ? ' on a reused connection' : ''}`,
      }),
    );
    req.end(body);
  });
}

describe('SIGTERM while many keep-alive connections are sending', () => {
  let proc: ServerProcess;
  afterAll(async () => {
    await proc?.stop('SIGKILL');
  });

  test('every request the server read is answered (Connection: close after the signal), none is reset', async () => {
    proc = await startServerProcess({ SHUTDOWN_TIMEOUT_MS: '20000', LOG_LEVEL: 'warn' });
    const body = rawPayload('spec-execution-example-as-preflight.json');
    const CONNECTIONS = 40;
    // One agent of one socket per client: each holds its own keep-alive connection, as a pooled
    // client (Steadybit's) reuses its connections; none opens a new one until the server closes its own.
    const agents = Array.from({ length: CONNECTIONS }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    const outcomes: Outcome[] = [];
    let signalled = false;
    let afterSignal = 0;
    // Each loop is one client on its own keep-alive connection; it stops once its connection is gone
    // (refused: the server no longer accepts, which is what a closed connection should lead to).
    const answered = agents.map(() => 0);
    const client = async (agent: Agent, i: number) => {
      for (;;) {
        const outcome = await post(proc.port, agent, body);
        outcomes.push(outcome);
        answered[i]++;
        if (signalled) afterSignal++;
        if (outcome.kind === 'error') return;
      }
    };
    const clients = agents.map(client);
    // Every client holds an open connection (answered twice on it) before the signal.
    await waitFor(async () => answered.every((n) => n >= 2), 'every client to hold an answered connection');
    proc.child.kill('SIGTERM');
    signalled = true;
    await Promise.all(clients);
    for (const agent of agents) agent.destroy();

    const errors = outcomes
      .filter((o): o is Extract<Outcome, { kind: 'error' }> => o.kind === 'error')
      .map((o) => o.code);
    const answers = outcomes.filter((o): o is Extract<Outcome, { kind: 'answer' }> => o.kind === 'answer');
    // A reset or hang-up on a connection the client held open is a request lost: there must be none.
    expect(errors.filter((code) => code.endsWith('on a reused connection'))).toEqual([]);
    // Each client ends when its connection was closed after an answer and a new one is not accepted:
    // refused, or (a connection that reached the kernel's accept queue as the listening socket
    // closed) reset before any request was read; behind a Service the preStop sleep keeps new ones away.
    expect(errors.filter((code) => code !== 'ECONNREFUSED' && code !== 'ECONNRESET')).toEqual([]);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.closes).length).toBeGreaterThanOrEqual(CONNECTIONS);
    expect(afterSignal).toBeGreaterThan(CONNECTIONS);
    expect(await proc.exited).toBe(0);
  }, 60000);
});
