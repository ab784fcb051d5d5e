import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BLOCK_PROD, runCli, runIn, tempDir } from './run-cli';

/** The CLI reads payload JSON as the service reads a body: what the service refuses with 400, the CLI refuses (exit 2). */
describe('the CLI refuses ambiguous payload files as the service does', () => {
  const { dir, cleanup } = tempDir({ 'block-prod.yaml': BLOCK_PROD });
  afterAll(cleanup);
  const file = (name: string, bytes: Buffer | string) => {
    writeFileSync(join(dir, name), bytes);
    return join(dir, name);
  };
  const good = JSON.stringify(runIn('staging'));
  // The first environment is the blocked one: a reader that kept the first key would deny, JSON.parse keeps the last and allows.
  const twice = good.replace('"environment":"staging"', '"environment":"prod","environment":"staging"');
  const notUtf8 = Buffer.concat([
    Buffer.from(good.slice(0, good.indexOf('SHOP-1'))),
    Buffer.from([0xfe]),
    Buffer.from(good.slice(good.indexOf('SHOP-1'))),
  ]);

  test.each<[string, string, RegExp]>([
    [
      'a key given twice',
      file('twice.json', twice),
      /payload .*twice\.json is ambiguous: the key execution\.environment is given twice/,
    ],
    [
      'bytes that are not UTF-8',
      file('latin1.json', notUtf8),
      /payload .*latin1\.json is not valid UTF-8: byte 0xFE at offset \d+, at execution\.experimentKey/,
    ],
  ])('eval: %s is a usage error (exit 2) naming the path', (_name, payloadFile, message) => {
    const res = runCli(['eval', '--payload', payloadFile, '--dir', dir]);
    expect(res.stderr).toMatch(message);
    expect(res.code).toBe(2);
  });

  test('eval reads the same bytes from stdin the same way', () => {
    const res = runCli(['eval', '--payload', '-', '--dir', dir], { input: twice });
    expect([res.code, res.stderr]).toEqual([
      2,
      expect.stringMatching(/is ambiguous: the key execution\.environment is given twice/),
    ]);
  });

  test("a policy test suite's payloadFile with a key given twice cannot run", () => {
    const suites = tempDir({
      'block-prod.yaml': BLOCK_PROD,
      'payloads/run.json': twice,
      'policies.test.yaml':
        'kind: PolicyTestSuite\ndefaults:\n  now: "2026-03-02T10:00:00Z"\n  payloadFile: payloads/run.json\ncases:\n  - name: staging\n    expect: { decision: allow }\n',
    });
    const res = runCli(['test', suites.dir]);
    expect(res.stdout).toMatch(
      /cannot run: payloadFile payloads\/run\.json is ambiguous: the key execution\.environment is given twice/,
    );
    expect(res.code).toBe(2);
  });
});
