import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerClientErrorsAsJson } from '../../src/http/client-error-json';
import { bundleFrom, testApp } from '../helpers/test-app';

/** Writes raw bytes to the port and resolves with everything the server sends back. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    socket.on('data', (d: Buffer) => { text += d.toString('utf8'); });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('requests the HTTP parser rejects get a JSON answer', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    const { app } = testApp(bundleFrom({ 'p.yaml': 'kind: Policy\nname: p\nrules:\n  - environments: { blocked: [x] }\n' }));
    server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    answerClientErrorsAsJson(server);
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  test.each<[string, string, string, RegExp]>([
    ['not HTTP at all', 'HELLO THERE\r\n\r\n', '400 Bad Request', /^malformed HTTP request \(HPE_/],
    ['a header line without a colon', 'POST /preflight HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n', '400 Bad Request', /^malformed HTTP request \(HPE_/],
    ['headers over the size limit', `POST /preflight HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`, '431 Request Header Fields Too Large', /^the request headers are too large$/],
  ])('%s', async (_name, bytes, statusLine, message) => {
    const answer = await rawExchange(port, bytes);
    expect(answer.startsWith(`HTTP/1.1 ${statusLine}\r\n`)).toBe(true);
    expect(answer).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ message: expect.stringMatching(message) });
  });
});
