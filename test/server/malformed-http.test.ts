import { connect } from 'node:net';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

describe('the started service answers a request that is not HTTP', () => {
  let proc: ServerProcess;
  afterAll(async () => { await proc?.stop(); });

  test('with a JSON 400 and a message, and keeps serving', async () => {
    proc = await startServerProcess({});
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = connect(proc.port, '127.0.0.1', () => socket.write('HELLO THERE\r\n\r\n'));
      socket.on('data', (d: Buffer) => { text += d.toString('utf8'); });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ message: expect.stringMatching(/^malformed HTTP request/) });
    expect((await fetch(`${proc.url}/healthz`)).status).toBe(200);
  });
});
