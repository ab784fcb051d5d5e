import { signHex, signatureHeader } from '../../src/signature/sign';
import { verifySignature, type SignatureFailure } from '../../src/signature/verify-signature';

const OLD = 'old-secret';
const NEW = 'new-secret ünïcode';
const body = Buffer.from('{"event":"experiment.execution.preflight"}');
const hex = signHex(NEW, body);

describe('verifySignature', () => {
  test('says which secret verified the request (its index), for the per-secret count of a rotation', () => {
    expect(verifySignature(signatureHeader(OLD, body), body, [OLD, NEW])).toEqual({ ok: true, secret: 0 });
    expect(verifySignature(signatureHeader(NEW, body), body, [OLD, NEW])).toEqual({ ok: true, secret: 1 });
  });

  test.each<[string, string | undefined, Buffer]>([
    ['accepts a signature made with the first secret', signatureHeader(OLD, body), body],
    ['accepts a signature made with the second secret of two (rotation)', signatureHeader(NEW, body), body],
    ['accepts upper-case hex: it decodes to the same bytes', `hmac-sha256 ${hex.toUpperCase()}`, body],
    ['accepts surrounding whitespace in the header value', `  hmac-sha256 ${hex}  `, body],
  ])('%s', (_name, header, raw) => {
    expect(verifySignature(header, raw, [OLD, NEW])).toEqual({ ok: true, secret: expect.any(Number) });
  });

  const changedByte = Buffer.from(body);
  changedByte[10] ^= 0x01;

  test.each<[string, string | undefined, Buffer, SignatureFailure, RegExp]>([
    [
      'rejects a body with one byte changed after signing',
      signatureHeader(NEW, body),
      changedByte,
      'mismatch',
      /does not match/,
    ],
    [
      'rejects a signature made with another secret',
      signatureHeader('someone-else', body),
      body,
      'mismatch',
      /does not match/,
    ],
    ['rejects a missing header', undefined, body, 'missing', /missing X-SB-Signature/],
    ['rejects an empty header value', '', body, 'missing', /empty X-SB-Signature/],
    ['rejects a header of spaces', '   ', body, 'missing', /empty X-SB-Signature/],
    ['rejects the prefix alone', 'hmac-sha256', body, 'malformed', /expected "hmac-sha256 <hex digest>"/],
    [
      'rejects a GitHub-style sha256= prefix',
      `sha256=${hex}`,
      body,
      'malformed',
      /expected "hmac-sha256 <hex digest>"/,
    ],
    [
      'rejects another algorithm as prefix',
      `hmac-sha1 ${hex}`,
      body,
      'malformed',
      /expected "hmac-sha256 <hex digest>"/,
    ],
    ['rejects an upper-case prefix', `HMAC-SHA256 ${hex}`, body, 'malformed', /expected "hmac-sha256 <hex digest>"/],
    ['rejects non-hex digits', `hmac-sha256 ${'z'.repeat(64)}`, body, 'malformed', /64 hex characters/],
    [
      'rejects a digest truncated by one byte',
      `hmac-sha256 ${hex.slice(0, 62)}`,
      body,
      'malformed',
      /64 hex characters/,
    ],
    ['rejects an odd-length digest', `hmac-sha256 ${hex.slice(0, 63)}`, body, 'malformed', /64 hex characters/],
    ['rejects a digest that is too long', `hmac-sha256 ${hex}00`, body, 'malformed', /64 hex characters/],
    ['rejects two signatures in one header', `hmac-sha256 ${hex}, hmac-sha256 ${hex}`, body, 'malformed', /expected/],
  ])('%s', (_name, header, raw, reason, message) => {
    const result = verifySignature(header, raw, [OLD, NEW]);
    expect(result).toEqual({ ok: false, reason, message: expect.stringMatching(message) });
  });

  test('keys the HMAC with the secret as UTF-8 (known answer)', () => {
    // printf 'abc' | openssl dgst -sha256 -hmac k
    expect(signHex('k', 'abc')).toBe('342e519ce0ad6c03a36b98eeb3f1d130db4813b9df4d1160eda488d712dc78ee');
    expect(
      verifySignature(
        'hmac-sha256 342e519ce0ad6c03a36b98eeb3f1d130db4813b9df4d1160eda488d712dc78ee',
        Buffer.from('abc'),
        ['k'],
      ),
    ).toEqual({ ok: true, secret: expect.any(Number) });
    // printf 'abc' | openssl dgst -sha256 -hmac 'clé-ü'   (the shell passes the secret as UTF-8)
    expect(signHex('clé-ü', 'abc')).toBe('217fe327c8314f519f0c59785868c2215a628654445dc23a06cdbc5033543f0f');
  });
});
