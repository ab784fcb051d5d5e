import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { signatureHeader } from '../../src/signature/sign';
import { rawPayload } from '../helpers/fixtures';
import { rawAnswers, rawExchange } from '../helpers/raw-http';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

// Issue 29 item 3: a body whose HTTP framing breaks was never answered (the connection held for
// 20 s and more). Each case here is sent over a raw socket to the started service; the answer and
// the close must both arrive: a hang fails the test by its timeout, not by a timing assert.
const SECRET = 'framing-secret-41c9';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HANG = 5000;
const dir = mkdtempSync(join(tmpdir(), 'preflight-gate-framing-'));
writeFileSync(join(dir, 'p.yaml'), 'kind: Policy\nname: p\nrules:\n  - environments: { blocked: [payments-prod] }\n');
const PAYLOAD = rawPayload('spec-execution-example-as-preflight.json');

let proc: ServerProcess;
beforeAll(async () => {
  // BODY_LIMIT and BODY_BUDGET small enough that a 503 takes two requests of a few KB.
  proc = await startServerProcess({
    POLICY_DIR: dir,
    POLICY_WATCH: 'false',
    WEBHOOK_SECRET: SECRET,
    BODY_LIMIT: '32kb',
    BODY_BUDGET: '40kb',
  });
});
afterAll(async () => {
  await proc?.stop('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const head = (extra: string) =>
  `POST /preflight HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-SB-Signature: ${signatureHeader(SECRET, PAYLOAD)}\r\n${extra}\r\n`;
const chunked = head('Transfer-Encoding: chunked\r\n');

describe('a body whose framing breaks is answered 400 with a message, and the connection closed', () => {
  test.each<[string, string, boolean, RegExp]>([
    ['a chunk size that is not hexadecimal', `${chunked}zz\r\n{}\r\n0\r\n\r\n`, false, /HPE_INVALID_CHUNK_SIZE/],
    [
      'a chunk size that overflows',
      `${chunked}ffffffffffffffffffff\r\n{}\r\n0\r\n\r\n`,
      false,
      /HPE_INVALID_CHUNK_SIZE/,
    ],
    ['chunk lines ending in a bare LF', `${chunked}2\n{}\n0\n\n`, false, /CRLF/],
    [
      'a chunked body without its last chunk, then a half-close',
      `${chunked}2\r\n{}\r\n`,
      true,
      /half-closed before the body ended/,
    ],
    [
      'fewer bytes than Content-Length, then a half-close',
      `${head('Content-Length: 2000\r\n')}{"event":`,
      true,
      /half-closed before the body ended/,
    ],
  ])(
    '%s',
    async (_name, bytes, halfClose, message) => {
      const got = rawAnswers(await rawExchange(proc.port, bytes, { halfClose }));
      expect(got).toEqual([
        {
          status: '400 Bad Request',
          headers: expect.objectContaining({ connection: 'close' }),
          body: { message: expect.stringMatching(message) },
        },
      ]);
      expect(got[0].headers['x-preflight-decision-id']).toMatch(UUID);
    },
    HANG,
  );
});

test(
  'POST /events: a half-close before Content-Length bytes arrived is answered 400 and closed too',
  async () => {
    const bytes = `POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-SB-Signature: ${signatureHeader(SECRET, '{}')}\r\nContent-Length: 500\r\n\r\n{"event":`;
    expect(rawAnswers(await rawExchange(proc.port, bytes, { halfClose: true }))).toEqual([
      {
        status: '400 Bad Request',
        headers: expect.objectContaining({ connection: 'close' }),
        body: { message: expect.stringMatching(/half-closed before the body ended/) },
      },
    ]);
  },
  HANG,
);

describe('Transfer-Encoding naming chunked twice is malformed framing: 400, not 501', () => {
  test.each<[string, string]>([
    ['chunked, chunked', 'Transfer-Encoding: chunked, chunked\r\n'],
    ['two Transfer-Encoding: chunked headers', 'Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n'],
    ['chunked, gzip (chunked not last)', 'Transfer-Encoding: chunked, gzip\r\n'],
  ])(
    '%s',
    async (_name, te) => {
      const got = rawAnswers(await rawExchange(proc.port, `${head(te)}2\r\n{}\r\n0\r\n\r\n`));
      expect(got).toEqual([
        {
          status: '400 Bad Request',
          headers: expect.objectContaining({ connection: 'close' }),
          body: {
            message: expect.stringMatching(
              /^Transfer-Encoding ".*" (names chunked more than once|is malformed framing)/,
            ),
          },
        },
      ]);
      expect(got[0].headers['x-preflight-decision-id']).toMatch(UUID);
    },
    HANG,
  );
});

describe('every answer to POST /preflight carries X-Preflight-Decision-Id, the early refusals too', () => {
  test.each<[string, string, string]>([
    ['413 for a declared length over BODY_LIMIT', head('Content-Length: 5000000\r\n'), '413 Payload Too Large'],
    [
      '501 for gzip, chunked',
      `${head('Transfer-Encoding: gzip, chunked\r\n')}2\r\n{}\r\n0\r\n\r\n`,
      '501 Not Implemented',
    ],
    ['501 for gzip (the parser refuses it)', head('Transfer-Encoding: gzip\r\n'), '501 Not Implemented'],
    [
      '417 for an unknown expectation',
      head(`Content-Length: ${PAYLOAD.length}\r\nExpect: 200-ok\r\n`),
      '417 Expectation Failed',
    ],
    [
      '400 for an HTTP/1.1 request without Host',
      `POST /preflight HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
      '400 Bad Request',
    ],
  ])(
    '%s',
    async (_name, bytes, status) => {
      const got = rawAnswers(await rawExchange(proc.port, bytes));
      expect(got).toEqual([expect.objectContaining({ status, body: { message: expect.any(String) } })]);
      expect(got[0].headers['x-preflight-decision-id']).toMatch(UUID);
    },
    HANG,
  );

  test('503 when the body budget is held by another body, before a byte is read; the held one is still decided', async () => {
    // 20 KB declared and held while its bytes trickle in; another 20 KB body does not fit in 40 KB
    // (the last eighth is kept for small bodies).
    const padded = Buffer.from(
      JSON.stringify({ ...JSON.parse(PAYLOAD.toString('utf8')), padding: 'x'.repeat(20_000) }),
    );
    const first = connect(proc.port, '127.0.0.1');
    const firstAnswer = new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      first.on('data', (d: Buffer) => chunks.push(d));
      first.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    const firstHead = `POST /preflight HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nX-SB-Signature: ${signatureHeader(SECRET, padded)}\r\nContent-Length: ${padded.length}\r\n\r\n`;
    await new Promise<void>((resolve) =>
      first.write(firstHead + padded.subarray(0, 100).toString('latin1'), () => resolve()),
    );
    // The first request is held once the server has read its head: give it until /healthz answers.
    await fetch(`${proc.url}/healthz`);
    const second = rawAnswers(
      await rawExchange(
        proc.port,
        head(`Connection: close\r\nContent-Length: ${padded.length}\r\n`) + padded.toString('latin1'),
      ),
    );
    expect(second).toEqual([
      expect.objectContaining({
        status: '503 Service Unavailable',
        body: { message: expect.stringMatching(/would pass the budget of 40960 bytes \(BODY_BUDGET\)/) },
      }),
    ]);
    expect(second[0].headers['x-preflight-decision-id']).toMatch(UUID);
    first.end(padded.subarray(100));
    expect(rawAnswers(await firstAnswer)).toEqual([expect.objectContaining({ status: '200 OK' })]);
  }, 10_000);
});
