import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { signHex, signatureHeader } from '../../src/signature/sign';
import { rawPayload } from '../helpers/fixtures';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';

const OLD = 'rotated-out-secret';
const NEW = 'current-secret';
const bundle = bundleFrom({
  'blocked.yaml': 'kind: Policy\nname: blocked-environments\nrules:\n  - environments: { blocked: [payments-prod] }\n',
});
const body = rawPayload('spec-execution-example-as-preflight.json');
const hex = signHex(NEW, body);
const changedByte = Buffer.from(body);
changedByte[changedByte.indexOf('ADM-1')] = 'B'.charCodeAt(0); // "ADM-1" -> "BDM-1": still valid JSON

/** Counter value of preflight_signature_failures_total{reason}. */
async function failures(metrics: ReturnType<typeof testApp>['metrics'], reason: string): Promise<number> {
  const metric = await metrics.signatureFailures.get();
  return metric.values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

async function decisions(metrics: ReturnType<typeof testApp>['metrics'], decision: string): Promise<number> {
  const metric = await metrics.decisions.get();
  return metric.values.find((v) => v.labels.decision === decision)?.value ?? 0;
}

describe('POST /preflight signature checks (WEBHOOK_SECRET with two secrets)', () => {
  test.each<[string, Buffer, { signature?: string; secret?: string }]>([
    ['valid signature with the first secret', body, { secret: OLD }],
    ['valid signature with the second secret of two', body, { secret: NEW }],
    [
      'upper-case hex is accepted: it decodes to the same bytes',
      body,
      { signature: `hmac-sha256 ${hex.toUpperCase()}` },
    ],
  ])('200: %s', async (_name, raw, opts) => {
    const { app, metrics } = testApp(bundle, { secrets: [OLD, NEW] });
    const res = await signedRequest(app, raw, opts);
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/^Allowed/);
    expect(res.headers['x-preflight-decision-id']).toEqual(expect.any(String));
    for (const reason of ['missing', 'malformed', 'mismatch']) expect(await failures(metrics, reason)).toBe(0);
  });

  test.each<[string, Buffer, { signature?: string; omit?: boolean }, string, RegExp]>([
    [
      'one byte of the body changed after signing',
      changedByte,
      { signature: signatureHeader(NEW, body) },
      'mismatch',
      /does not match the request body/,
    ],
    [
      'signed with a secret that is not configured',
      body,
      { signature: signatureHeader('attacker', body) },
      'mismatch',
      /does not match the request body/,
    ],
    ['header missing', body, { omit: true }, 'missing', /missing X-SB-Signature header/],
    ['empty header value', body, { signature: '' }, 'missing', /empty X-SB-Signature header/],
    [
      'wrong prefix (sha256=)',
      body,
      { signature: `sha256=${hex}` },
      'malformed',
      /malformed X-SB-Signature header: expected "hmac-sha256 <hex digest>"/,
    ],
    [
      'wrong prefix (hmac-sha1)',
      body,
      { signature: `hmac-sha1 ${hex}` },
      'malformed',
      /malformed X-SB-Signature header/,
    ],
    ['non-hex digest', body, { signature: `hmac-sha256 ${'g'.repeat(64)}` }, 'malformed', /must be 64 hex characters/],
    [
      'truncated digest',
      body,
      { signature: `hmac-sha256 ${hex.slice(0, 40)}` },
      'malformed',
      /must be 64 hex characters/,
    ],
    [
      'odd-length digest',
      body,
      { signature: `hmac-sha256 ${hex.slice(0, 63)}` },
      'malformed',
      /must be 64 hex characters/,
    ],
  ])('401: %s', async (_name, raw, opts, reason, message) => {
    const { app, metrics } = testApp(bundle, { secrets: [OLD, NEW] });
    const res = await signedRequest(app, raw, opts.omit ? {} : { signature: opts.signature });
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ message: expect.stringMatching(message) });
    expect(await failures(metrics, reason)).toBe(1);
    expect(await decisions(metrics, 'allow')).toBe(0);
  });

  test('a bad signature is rejected before the body is parsed: invalid JSON still gets 401, not 400', async () => {
    const { app } = testApp(bundle, { secrets: [NEW] });
    const res = await signedRequest(app, '{not json', { signature: signatureHeader('wrong', '{not json') });
    expect(res.status).toBe(401);
  });

  test('failures are exported on /metrics by reason', async () => {
    const { app } = testApp(bundle, { secrets: [NEW] });
    await signedRequest(app, body, {});
    await signedRequest(app, body, { signature: 'hmac-sha256 nothex' });
    await signedRequest(app, body, { signature: 'hmac-sha256 nothex' });
    await signedRequest(app, body, { secret: NEW });
    const res = await request(app).get('/metrics');
    expect(res.text).toContain('preflight_signature_failures_total{reason="missing"} 1');
    expect(res.text).toContain('preflight_signature_failures_total{reason="malformed"} 2');
  });

  test('non-ASCII bytes in the header value: 401 malformed, not a 500', async () => {
    const { app, metrics } = testApp(bundle, { secrets: [NEW] });
    const server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const head = Buffer.concat([
        Buffer.from(
          `POST /preflight HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nX-SB-Signature: hmac-sha256 `,
        ),
        Buffer.from('\u00e4'.repeat(32), 'utf8'), // 64 bytes, none of them hex
        Buffer.from('\r\n\r\n'),
      ]);
      const answer = await new Promise<string>((resolve, reject) => {
        let text = '';
        const socket = connect(port, '127.0.0.1', () => socket.end(Buffer.concat([head, body])));
        socket.on('data', (d: Buffer) => {
          text += d.toString('utf8');
        });
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 401 /);
      expect(answer).toContain('malformed X-SB-Signature header');
      expect(await failures(metrics, 'malformed')).toBe(1);
    } finally {
      server.close();
    }
  });

  test('without WEBHOOK_SECRET an unsigned request is decided', async () => {
    const { app } = testApp(bundle, { secrets: [] });
    const res = await signedRequest(app, body, {});
    expect(res.status).toBe(200);
  });
});

describe('POST /preflight with a compressed body', () => {
  test.each<[string, (gz: Buffer) => string]>([
    ['signed over the uncompressed payload', () => signatureHeader(NEW, body)],
    ['signed over the compressed bytes', (gz: Buffer) => signatureHeader(NEW, gz)],
  ])('415 without a decision: %s (the signature is only checked over bytes as received)', async (_name, sign) => {
    const gz = gzipSync(body);
    const { app, metrics } = testApp(bundle, { secrets: [NEW] });
    const res = await request(app)
      .post('/preflight')
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .set('x-sb-signature', sign(gz))
      .serialize((raw: Buffer) => raw as unknown as string)
      .send(gz);
    expect(res.status).toBe(415);
    expect(res.body.message).toMatch(/^content encoding unsupported: send the webhook payload uncompressed/);
    expect(await decisions(metrics, 'allow')).toBe(0);
  });

  test.each(['identity', 'IDENTITY', ''])('Content-Encoding "%s" is no compression: decided', async (encoding) => {
    const { app } = testApp(bundle, { secrets: [NEW] });
    const res = await request(app)
      .post('/preflight')
      .set('content-type', 'application/json')
      .set('content-encoding', encoding)
      .set('x-sb-signature', signatureHeader(NEW, body))
      .serialize((raw: Buffer) => raw as unknown as string)
      .send(body);
    expect(res.status).toBe(200);
  });
});
