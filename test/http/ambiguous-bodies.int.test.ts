import { MemoryStateStore } from '../../src/state/memory-state-store';
import { rawPayload } from '../helpers/fixtures';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';

const SECRET = 'ambiguous-secret';
const PREFLIGHT = rawPayload('spec-execution-example-as-preflight.json').toString('utf8');
const CREATED = rawPayload('docs-custom-webhook-execution-created.json').toString('utf8');
const bundle = bundleFrom({ 'p.yaml': 'kind: Policy\nname: no-dev\nrules:\n  - environments: {blocked: [dev]}\n' });
const app = () =>
  testApp(bundle, {
    secrets: [SECRET],
    state: {
      store: new MemoryStateStore({ executionTtlMs: 3_600_000, eventToleranceMs: 900_000 }),
      onUnavailable: 'deny',
      emergencyStop: 'enforce',
      eventToleranceMs: 900_000,
    },
  }).app;

/** The fixture's text with `find` replaced once: the bytes are signed as they are, so only the ambiguity is wrong. */
function edited(text: string, find: string, replace: string): Buffer {
  if (!text.includes(find)) throw new Error(`fixture has no ${find}`);
  return Buffer.from(text.replace(find, replace), 'utf8');
}
const invalidUtf8 = (text: string, find: string) => {
  const at = Buffer.from(text.slice(0, text.indexOf(find) + find.length), 'utf8').length;
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at)]);
};

describe('an ambiguous body is refused with 400 and the JSON path', () => {
  test.each<[string, string, Buffer, RegExp]>([
    [
      '/preflight',
      'two environment keys (the first a blocked one)',
      edited(PREFLIGHT, '"environment": "32009f6e', '"environment": "dev", "environment": "32009f6e'),
      /^the body is ambiguous: the key execution\.environment is given twice/,
    ],
    [
      '/preflight',
      'two event keys',
      edited(
        PREFLIGHT,
        '"event": "experiment.execution.preflight"',
        '"event": "experiment.execution.preflight", "event": "experiment.execution.preflight"',
      ),
      /^the body is ambiguous: the key event is given twice/,
    ],
    [
      '/preflight',
      'two radius objects',
      edited(PREFLIGHT, '"radius": {', '"radius": {"percentage": 100}, "radius": {'),
      /^the body is ambiguous: the key execution\.steps\[1\]\.radius is given twice/,
    ],
    [
      '/preflight',
      'a byte that is not UTF-8 in the experiment name',
      invalidUtf8(PREFLIGHT, '"name": "My first'),
      /^the body is not valid UTF-8: byte 0xFF at offset \d+, at execution\.name/,
    ],
    [
      '/events',
      'two event keys',
      edited(
        CREATED,
        '"event": "experiment.execution.created"',
        '"event": "experiment.execution.completed", "event": "experiment.execution.created"',
      ),
      /^the body is ambiguous: the key event is given twice/,
    ],
    [
      '/events',
      'two environment keys',
      edited(CREATED, '"environment": "', '"environment": "x", "environment": "'),
      /^the body is ambiguous: the key execution\.environment is given twice/,
    ],
    [
      '/events',
      'a byte that is not UTF-8 in the team key',
      invalidUtf8(CREATED, '"teamKey": "'),
      /^the body is not valid UTF-8: byte 0xFF at offset \d+, at execution\.teamKey/,
    ],
  ])('POST %s: %s', async (path, _name, body, message) => {
    const res = await signedRequest(app(), body, { path, secret: SECRET });
    expect([res.status, res.body]).toEqual([400, { message: expect.stringMatching(message) }]);
  });

  test.each(['/preflight', '/events'])('POST %s still decides the unedited fixture', async (path) => {
    const res = await signedRequest(app(), path === '/preflight' ? PREFLIGHT : CREATED, { path, secret: SECRET });
    expect(res.status).toBeLessThan(300);
  });
});
