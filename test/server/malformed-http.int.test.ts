import { connect } from 'node:net';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

describe('the started service answers a request that is not HTTP', () => {
  let proc: ServerProcess;
  afterAll(async () => {
    await proc?.stop();
  });

  test('with a JSON 400 and a message, and keeps serving', async () => {
    proc = await startServerProcess({});
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = connect(proc.port, '127.0.0.1', () => socket.write('HELLO THERE\r\n\r\n'));
      socket.on('data', (d: Buffer) => {
        text += d.toString('utf8');
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      message: expect.stringMatching(/^malformed HTTP request/),
    });
    expect((await fetch(`${proc.url}/healthz`)).status).toBe(200);
  });
});

describe('the started service refuses a body over BODY_LIMIT from its declared length', () => {
  let proc: ServerProcess;
  afterAll(async () => {
    await proc?.stop();
  });

  test('413 in JSON at once, while only a few bytes of it were sent', async () => {
    proc = await startServerProcess({ BODY_LIMIT: '1kb' });
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = connect(proc.port, '127.0.0.1', () =>
        socket.write(
          'POST /preflight HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n{"ev',
        ),
      );
      socket.on('data', (d: Buffer) => {
        text += d.toString('utf8');
        if (text.endsWith('}')) socket.destroy();
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      message: expect.stringMatching(/^the body is larger than the limit of 1024 bytes \(BODY_LIMIT\)$/),
    });
  });
});
