import { connect, type Socket } from 'node:net';
import { signatureHeader } from '../../src/signature/sign';
import { rawPayload } from '../helpers/fixtures';
import { startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';

/** A raw HTTP/1.1 connection: we decide when each byte goes out, and see everything that comes back. */
class RawConnection {
  received = '';
  closed = false;
  private constructor(readonly socket: Socket) {
    socket.on('data', (d: Buffer) => {
      this.received += d.toString('utf8');
    });
    socket.on('close', () => {
      this.closed = true;
    });
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }
}

/** Resolves with the error code of a new connection (ECONNREFUSED once the server stopped listening). */
function connectionError(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? String(err)));
  });
}

describe('SIGTERM with a request in flight', () => {
  let proc: ServerProcess;
  afterAll(async () => {
    await proc?.stop('SIGKILL');
  });

  test('the request in flight gets its answer, new connections are refused, the process exits 0', async () => {
    proc = await startServerProcess({ WEBHOOK_SECRET: 'sigterm-secret' });
    const body = rawPayload('spec-execution-example-as-preflight.json');
    const conn = await RawConnection.open(proc.port);

    // Headers and half of the body. `Expect: 100-continue` makes the server confirm it has read the
    // headers (and started the request) before we go on.
    conn.socket.write(
      [
        'POST /preflight HTTP/1.1',
        'Host: 127.0.0.1',
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
        `X-SB-Signature: ${signatureHeader('sigterm-secret', body)}`,
        'Expect: 100-continue',
        '',
        '',
      ].join('\r\n'),
    );
    await waitFor(
      async () => conn.received.startsWith('HTTP/1.1 100 Continue'),
      'the server to read the request headers',
    );
    conn.socket.write(body.subarray(0, 1000));

    proc.child.kill('SIGTERM');
    await waitFor(
      async () => proc.output().includes('SIGTERM: finishing requests in flight'),
      'the server to handle SIGTERM',
    );
    expect(await connectionError(proc.port)).toBe('ECONNREFUSED');
    expect(proc.child.exitCode).toBeNull(); // still running: it waits for the request in flight

    conn.socket.write(body.subarray(1000));
    await waitFor(async () => conn.closed, 'the server to answer and close the connection');
    const answer = conn.received.slice(conn.received.indexOf('\r\n\r\n') + 4);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      message: expect.stringMatching(/^Allowed/),
      modifications: [],
    });

    expect(await proc.exited).toBe(0);
    expect(proc.output()).toMatch(/"message":"stopped"/);
    expect(await connectionError(proc.port)).toBe('ECONNREFUSED');
  });
});
