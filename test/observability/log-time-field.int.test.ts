import { join } from 'node:path';
import { signedPost } from '../helpers/signed-post';
import { preflightPayload } from '../helpers/fixtures';
import { ROOT, startServerProcess } from '../helpers/server-process';

/** Service lines and audit lines share one timestamp field, so one log pipeline parses both. */
it('every line on stdout, service and audit, has its time in `time` (ISO 8601 UTC) and none has `timestamp`', async () => {
  const service = await startServerProcess({
    POLICY_DIR: join(ROOT, 'policies'),
    WEBHOOK_SECRET: 's',
    POLICY_WATCH: 'false',
  });
  try {
    const res = await signedPost(`${service.url}/preflight`, preflightPayload(), 's');
    expect(res.status).toBe(200);
  } finally {
    await service.stop();
  }
  const lines = service
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const audit = lines.filter((l) => l.log === 'audit');
  expect(audit).toHaveLength(1);
  expect(lines.length).toBeGreaterThan(audit.length + 2);
  for (const line of lines) {
    expect([
      line.message,
      typeof line.time === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(line.time),
      'timestamp' in line,
    ]).toEqual([line.message, true, false]);
  }
});
