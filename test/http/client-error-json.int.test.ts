import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { createHttpServer } from '../../src/http/create-http-server';
import { rawPayload } from '../helpers/fixtures';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';

/**
 * Writes raw bytes to the port and resolves with everything the server sends back until it closes
 * the connection, or until `until` holds for what arrived (then the test closes it).
 */
function rawExchange(port: number, bytes: string | Buffer, until?: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    socket.on('data', (d: Buffer) => {
      text += d.toString('utf8');
      if (until?.(text)) socket.destroy();
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

/** The answers in a raw response stream: status line and parsed JSON body of each. */
function answers(text: string): Array<{ status: string; headers: string; body: unknown }> {
  const out: Array<{ status: string; headers: string; body: unknown }> = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    const head = rest.slice(0, headEnd);
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
    const bodyStart = headEnd + 4;
    const body = Buffer.from(rest.slice(bodyStart), 'utf8').subarray(0, length).toString('utf8');
    out.push({
      status: head.slice(9, head.indexOf('\r\n')),
      headers: head,
      body: length > 0 ? JSON.parse(body) : undefined,
    });
    rest = rest.slice(bodyStart + body.length);
  }
  return out;
}

const PAYLOAD = rawPayload('spec-execution-example-as-preflight.json').toString('utf8');
const post = (path: string, body: string, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

describe('every answer the HTTP layer makes itself is JSON with a message', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    // The limit as main.ts sets it: the app checks framing and reads bodies with it.
    const { app } = testApp(
      bundleFrom({ 'p.yaml': 'kind: Policy\nname: p\nrules:\n  - environments: { blocked: [x] }\n' }),
      { bodyLimit: '64kb' },
    );
    server = createHttpServer(app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );

  test.each<[string, string, string, RegExp]>([
    ['not HTTP at all', 'HELLO THERE\r\n\r\n', '400 Bad Request', /^malformed HTTP request \(HPE_/],
    [
      'a header line without a colon',
      'POST /preflight HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n',
      '400 Bad Request',
      /^malformed HTTP request \(HPE_/,
    ],
    [
      'headers over the size limit',
      `POST /preflight HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`,
      '431 Request Header Fields Too Large',
      /^the request headers are too large$/,
    ],
    [
      'an HTTP/1.1 request without Host',
      'GET /healthz HTTP/1.1\r\n\r\n',
      '400 Bad Request',
      /^the request has no Host header, which HTTP\/1\.1 requires$/,
    ],
    [
      'an Expect other than 100-continue',
      post('/preflight', '{}', 'Expect: 200-ok\r\n'),
      '417 Expectation Failed',
      /^Expect: 200-ok is not supported/,
    ],
    [
      'Transfer-Encoding gzip (the parser refuses it)',
      'POST /preflight HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n',
      '501 Not Implemented',
      /^(the )?Transfer-Encoding( "gzip")? is not supported: send the body as is/,
    ],
    [
      'Transfer-Encoding gzip, chunked (the parser lets it through)',
      'POST /preflight HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
      '501 Not Implemented',
      /^Transfer-Encoding "gzip, chunked" is not supported/,
    ],
    [
      'two Content-Length headers',
      'POST /preflight HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      '400 Bad Request',
      /^malformed HTTP request \(HPE_UNEXPECTED_CONTENT_LENGTH\)$/,
    ],
    [
      'CONNECT',
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      '405 Method Not Allowed',
      /^CONNECT is not supported/,
    ],
    ['an HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', '400 Bad Request', /^malformed HTTP request/],
  ])('%s', async (_name, bytes, statusLine, message) => {
    const answer = await rawExchange(port, bytes);
    expect(answer.startsWith(`HTTP/1.1 ${statusLine}\r\n`)).toBe(true);
    expect(answer).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      message: expect.stringMatching(message),
    });
  });

  test('an HTTP/1.0 request without Host is still answered (Host is optional there)', async () => {
    expect(answers(await rawExchange(port, 'GET /healthz HTTP/1.0\r\n\r\n'))).toEqual([
      expect.objectContaining({ status: '200 OK', body: { status: 'alive' } }),
    ]);
  });

  describe('a declared Content-Length over BODY_LIMIT is refused at once', () => {
    test.each<[string, string]>([
      ['with only 10 of 10 MB sent', ''],
      ['with Expect: 100-continue, before any 100 Continue', 'Expect: 100-continue\r\n'],
    ])('%s', async (_name, extra) => {
      const head = `POST /preflight HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10485760\r\n${extra}\r\n{"event":`;
      // The server has 10 bytes of 10 MB: the answer must come without waiting for the rest.
      const answer = await rawExchange(port, head, (t) => t.includes('}'));
      expect(answers(answer)).toEqual([
        {
          status: '413 Payload Too Large',
          headers: expect.stringMatching(/\r\nConnection: close/i),
          body: { message: 'the body is larger than the limit of 65536 bytes (BODY_LIMIT)' },
        },
      ]);
    });

    // Issue 19 item 6: a chunked body declares no length; it was read to its end before the 413.
    test('a chunked body, as soon as it passes the limit, without waiting for its end', async () => {
      const chunk = 'a'.repeat(8192);
      const head = `POST /preflight HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
      const body = Array.from({ length: 9 }, () => `2000\r\n${chunk}\r\n`).join(''); // 72 KB, no closing 0-chunk
      const answer = await Promise.race([
        rawExchange(port, head + body, (t) => t.includes('}')),
        new Promise<string>((resolve) => {
          setTimeout(() => resolve('(no answer within 3 s)'), 3000).unref();
        }),
      ]);
      expect(answers(answer)).toEqual([
        expect.objectContaining({
          status: '413 Payload Too Large',
          body: { message: 'the body is larger than the limit of 65536 bytes (BODY_LIMIT)' },
        }),
      ]);
    });

    test('after that 413, the rest of the chunked body is dropped and the connection serves the next request', async () => {
      const chunk = 'a'.repeat(8192);
      const request = `POST /preflight HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${Array.from({ length: 9 }, () => `2000\r\n${chunk}\r\n`).join('')}0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`;
      const got = answers(
        await rawExchange(port, request, (t) => (t.match(/\r\n\r\n\{/g) ?? []).length >= 2 && t.endsWith('}')),
      );
      expect(got.map((a) => a.status)).toEqual(['413 Payload Too Large', '200 OK']);
      expect(got[1].body).toEqual({ status: 'alive' });
    });

    test('a body within the limit is still read and decided', async () => {
      expect(answers(await rawExchange(port, post('/preflight', PAYLOAD), (t) => t.includes('}')))[0]).toMatchObject({
        status: '200 OK',
      });
    });
  });

  describe('a valid request followed by garbage in the same packet gets its own answer first', () => {
    test.each<[string, string, string]>([
      ['POST /preflight (answered asynchronously)', post('/preflight', PAYLOAD), '200 OK'],
      ['GET /readyz', 'GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n', '200 OK'],
      [
        'two requests, then garbage',
        `${post('/preflight', PAYLOAD)}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`,
        '200 OK',
      ],
      ['an unknown route', post('/nothing', '{}'), '404 Not Found'],
    ])('%s', async (name, request, status) => {
      const got = answers(await rawExchange(port, `${request}GARBAGE\r\n\r\n`));
      const expected = name.startsWith('two') ? [status, '200 OK', '400 Bad Request'] : [status, '400 Bad Request'];
      expect(got.map((a) => a.status)).toEqual(expected);
      expect(got.at(-1)?.body).toEqual({ message: 'malformed HTTP request (HPE_INVALID_METHOD)' });
    });
  });
});
