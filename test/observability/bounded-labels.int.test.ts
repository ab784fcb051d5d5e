import request from 'supertest';
import { preflightWith } from '../helpers/fixtures';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import { seriesOf } from './audit-sink';

const POLICIES = {
  'targets.yaml':
    'kind: Policy\nname: no-docker-engine\nrules:\n  - targetAttributes:\n      forbid: {container.engine: [docker]}\n',
};

describe('metric labels stay bounded', () => {
  it('no experiment key, execution id, team, environment or target reaches /metrics', async () => {
    const { app } = testApp(bundleFrom(POLICIES));
    const run = preflightWith((p) => {
      p.execution.experimentKey = 'LEAK-4711';
      p.execution.teamKey = 'LEAKTEAM';
      p.execution.environment = 'leak-environment';
      p.execution.id = 987654321;
    });
    await signedRequest(app, run).expect(403);
    const text = (await request(app).get('/metrics')).text;
    expect(text).toContain('preflight_decisions_total{decision="deny"} 1');
    for (const value of ['LEAK-4711', 'LEAKTEAM', 'leak-environment', '987654321', 'docker://', 'docker-desktop'])
      expect([value, text.includes(value)]).toEqual([value, false]);
  });

  it('any path outside the fixed set is one route="other" series', async () => {
    const { app, metrics } = testApp(bundleFrom(POLICIES));
    for (const path of ['/wp-admin', '/preflight/../../etc/passwd', '/api/v1/ADM-1', '/%2e%2e', '/metrics2'])
      await request(app).get(path);
    await request(app).get('/healthz');
    const routes = new Set(
      Object.keys(await seriesOf(metrics, 'preflight_request_duration_seconds')).map(
        (k) => /route=([^,]+)/.exec(k)?.[1],
      ),
    );
    expect([...routes].sort()).toEqual(['/healthz', 'other']);
  });
});
