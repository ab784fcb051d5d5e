import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import type { Notification } from '../../src/notify/notification';
import type { Notifier } from '../../src/notify/notifier';
import { MemoryStateStore } from '../../src/state/memory-state-store';
import type { GuardrailState } from '../../src/state/guardrail-state';
import { startFakeReceiver, type FakeReceiver } from '../helpers/fake-receiver';
import { signedRequest } from '../helpers/signed-request';
import { signedPost } from '../helpers/signed-post';
import { startServerProcess, waitFor } from '../helpers/server-process';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import { PLAIN_POLICIES, SECRET } from '../state/guardrail-app';
import { at, disengagedPayload, engagedPayload, T0 } from '../state/state-events';
import { TIMING } from '../state/store-table';
import { NOTIFY_POLICIES, runIn } from './decided-runs';
import { notifyingStateStore } from '../../src/notify/notifying-state-store';
import { killswitchEventFromApi } from '../../src/platform/platform-state-events';

const WHSEC = `whsec_${Buffer.alloc(32, 4).toString('base64')}`;

describe('the state store tells the notifier when the emergency stop changes', () => {
  it('through POST /events: engaged and released, once each; a repeated delivery or an ignored event is not told', async () => {
    const told: Notification[] = [];
    const notifier: Notifier = {
      decided: () => undefined,
      notify: (n) => {
        told.push(n);
      },
      close: async () => undefined,
    };
    const state: GuardrailState = {
      store: notifyingStateStore(new MemoryStateStore(TIMING), notifier),
      onUnavailable: 'deny',
      emergencyStop: 'enforce',
      eventToleranceMs: 900_000,
    };
    const { app } = testApp(bundleFrom(PLAIN_POLICIES), { secrets: [SECRET], state, clock: () => new Date(T0) });
    const event = (body: object) => signedRequest(app, body, { path: '/events', secret: SECRET });
    expect((await event(engagedPayload(at(T0 - 60_000), 'jane'))).status).toBe(202);
    expect((await event(engagedPayload(at(T0 - 60_000), 'jane'))).status).toBe(200);
    expect((await event(disengagedPayload(at(T0 - 1000), at(T0 - 30_000)))).status).toBe(200);
    expect((await event(disengagedPayload(at(T0 - 1000), at(T0 - 60_000)))).status).toBe(202);
    expect(told.map((n) => [n.kind, n.title])).toEqual([
      ['emergency-stop-engaged', 'Emergency stop engaged by jane'],
      ['emergency-stop-released', expect.stringMatching(/^Emergency stop released by /)],
    ]);
  });

  it('through the Platform API sync: a change it reads is told once, the same answer read again is not', async () => {
    const told: Notification[] = [];
    const store = notifyingStateStore(new MemoryStateStore(TIMING), {
      notify: (n) => {
        told.push(n);
      },
    });
    const engaged = { active: true, engaged: at(T0 - 60_000), engagedByName: 'Ann Admin' };
    await store.apply(killswitchEventFromApi(engaged, T0 - 1000), new Date(T0));
    await store.apply(killswitchEventFromApi(engaged, T0), new Date(T0));
    expect(told.map((n) => [n.kind, n.title])).toEqual([
      ['emergency-stop-engaged', 'Emergency stop engaged by Ann Admin'],
    ]);
  });
});

describe('the service (node dist/main.js) with a generic webhook', () => {
  let receiver: FakeReceiver;
  let dir: string;
  beforeEach(async () => {
    receiver = await startFakeReceiver({ fallback: { status: 204, body: '' } });
    dir = mkdtempSync(join(tmpdir(), 'notify-service-'));
  });
  afterEach(async () => {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tells of a denial and of a rejected reload; on SIGTERM it sends what still waits for its dedupe window', async () => {
    const policies = join(dir, 'policies');
    mkdirSync(policies);
    writeFileSync(join(policies, 'p.yaml'), NOTIFY_POLICIES['policies.yaml']);
    writeFileSync(
      join(dir, 'targets.yaml'),
      `targets:\n  - name: audit\n    type: webhook\n    url: ${receiver.url}\n    secretEnv: AUDIT_SECRET\n    events: [denied, policy-rejected]\n`,
    );
    const service = await startServerProcess({
      POLICY_DIR: policies,
      POLICY_WATCH: 'false',
      WEBHOOK_SECRET: SECRET,
      NOTIFY_TARGETS_FILE: join(dir, 'targets.yaml'),
      AUDIT_SECRET: WHSEC,
      NOTIFY_DEDUPE_WINDOW: '1h',
      STEADYBIT_URL: '',
      AUDIT_LOG: 'off',
    });
    try {
      const denied = await signedPost(`${service.url}/preflight`, runIn('kube-system'), SECRET);
      expect(denied.status).toBe(403);
      writeFileSync(join(policies, 'broken.yaml'), 'kind: Policy\nname: Broken Name\n');
      service.child.kill('SIGHUP');
      await waitFor(async () => service.output().includes('policy set rejected'), 'the rejected reload');
      // Both wait for their hour-long dedupe window; SIGTERM sends them now.
      expect(receiver.received).toHaveLength(0);
      expect(await service.stop('SIGTERM')).toBe(0);
    } finally {
      await service.stop('SIGKILL');
    }
    const bodies = receiver.received.map(
      (r) =>
        new Webhook(WHSEC).verify(r.body, {
          'webhook-id': String(r.headers['webhook-id']),
          'webhook-timestamp': String(r.headers['webhook-timestamp']),
          'webhook-signature': String(r.headers['webhook-signature']),
        }) as { type: string; data: { title: string; problems?: string[] } },
    );
    expect(bodies.map((b) => [b.type, b.data.title]).sort()).toEqual([
      ['preflight-gate.denied', 'Run 1 of ADM-1 denied by no-kube-system'],
      ['preflight-gate.policy-rejected', 'A policy change was rejected'],
    ]);
    expect(bodies.find((b) => b.type === 'preflight-gate.policy-rejected')?.data.problems?.[0]).toMatch(
      /broken\.yaml:2:7 name: "Broken Name" is not a name/,
    );
  }, 60000);
});
