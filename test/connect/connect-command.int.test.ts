import { connectCommand, type ConnectOptions } from '../../src/cli/commands/connect-command';
import { BadInputError } from '../../src/common/bad-input-error';
import { fingerprint } from '../../src/connect/webhook-plan';
import type { FakeSteadybit } from '../helpers/fake-steadybit';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { freePort, startServerProcess, type ServerProcess } from '../helpers/server-process';
import { tempDirs } from '../cli/run-cli';

const SECRET = 'connect-test-secret';
const POLICIES = {
  'prod.yaml': [
    'kind: Policy',
    'name: prod-limits',
    'rules:',
    '  - targetAttributes: {forbid: {k8s.namespace: [kube-system]}, allowOnly: {aws.account: ["123456789012"]}, whenMissing: allow}',
    '',
  ].join('\n'),
};
const READS_ATTRIBUTES = {
  'cond.yaml': [
    'kind: Policy',
    'name: no-big-pods',
    'rules:',
    '  - condition:',
    '      deny: {some: [{var: execution.steps}, {some: [{var: targetExecutions}, {in: ["big", {var: name}]}]}]}',
    '      reason: big pods',
    '',
  ].join('\n'),
};

const dirs = tempDirs();
let fake: FakeSteadybit;
const steadybit = fakeSteadybitEachTest((started) => {
  fake = started;
});

// No gate answers at gate.example.com: these tests are about what connect writes, so the check
// before writing (signed samples to the gate) is off unless a test turns it on with a running gate.
const options = (o: Partial<ConnectOptions> = {}): ConnectOptions => ({
  gateUrl: 'https://gate.example.com',
  name: 'preflight-gate',
  events: true,
  check: false,
  probeTimeout: '20',
  ...o,
});
async function connect(
  files: Record<string, string>,
  o: Partial<ConnectOptions> = {},
  env: Record<string, string> = {},
  onWrite: (s: string) => void = () => undefined,
) {
  let out = '';
  const code = await connectCommand(
    dirs(files),
    options(o),
    { STEADYBIT_URL: fake.url, STEADYBIT_TOKEN: 'test-token', WEBHOOK_SECRET: SECRET, ...env },
    (s) => {
      out += s;
      onWrite(s);
    },
  );
  return { code, out };
}
const posts = () => fake.requests.filter((r) => r.method === 'POST');

/** A preflight webhook of the gate's name as Steadybit stores it today: an old address and secret, an extra header. */
const storedWebhook = () => ({
  id: 'ac456d58-8fb2-4df4-86d8-ca81d7562739',
  version: 3,
  scope: 'GLOBAL',
  name: 'preflight-gate',
  url: 'https://old.example.com/preflight',
  secret: 'old',
  events: ['experiment.execution.preflight'],
  targetAttributeIncludes: ['*'],
  headers: { 'X-Env': 'prod' },
});

describe('registering the webhooks', () => {
  test('--dry-run prints both webhooks as a diff of what would be created, and changes nothing', async () => {
    const { code, out } = await connect(POLICIES, { dryRun: true, team: 'SRE' });
    expect(code).toBe(0);
    expect(out.split('\n')).toEqual(
      expect.arrayContaining([
        '--- preflight webhook "preflight-gate" (none in Steadybit)',
        '+ url: https://gate.example.com/preflight',
        '+ scope: TEAM',
        '+ team: SRE',
        '+ events: experiment.execution.preflight',
        '+ targetAttributeIncludes: aws.account, k8s.namespace',
        `+ secret: ${fingerprint(SECRET)}`,
        '--- custom webhook "preflight-gate events" (none in Steadybit)',
        '+ url: https://gate.example.com/events',
        '+ events: experiment.execution.created, experiment.execution.completed, experiment.execution.failed, experiment.execution.errored, experiment.execution.canceled, killswitch.engaged, killswitch.disengaged',
      ]),
    );
    expect(out).toContain('nothing was changed in Steadybit');
    expect(out).not.toContain(SECRET);
    expect(posts()).toEqual([]);
  });

  test('creates both webhooks with the URL, secret, scope, events and the attributes the policies read; a second run changes nothing', async () => {
    const first = await connect(POLICIES);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/preflight webhook "preflight-gate" created \(id [0-9a-f-]{36}\)/);
    expect(fake.preflightWebhooks).toEqual([
      expect.objectContaining({
        name: 'preflight-gate',
        url: 'https://gate.example.com/preflight',
        scope: 'GLOBAL',
        secret: SECRET,
        events: ['experiment.execution.preflight'],
        targetAttributeIncludes: ['aws.account', 'k8s.namespace'],
      }),
    ]);
    expect(fake.customWebhooks).toEqual([
      expect.objectContaining({
        name: 'preflight-gate events',
        url: 'https://gate.example.com/events',
        secret: SECRET,
        targetAttributeIncludes: [],
      }),
    ]);
    const again = await connect(POLICIES);
    expect(again.code).toBe(0);
    expect(again.out).toContain('preflight webhook "preflight-gate" is up to date');
    expect(again.out).toContain('custom webhook "preflight-gate events" is up to date');
    expect(posts()).toHaveLength(2);
  });

  test('an existing webhook of that name is updated in place (id kept, version checked, extra headers kept), the diff shows old and new', async () => {
    fake.preflightWebhooks = [storedWebhook()];
    const { code, out } = await connect(POLICIES, { events: false });
    expect(code).toBe(0);
    expect(out.split('\n')).toEqual(
      expect.arrayContaining([
        '--- preflight webhook "preflight-gate" in Steadybit (id ac456d58-8fb2-4df4-86d8-ca81d7562739, version 3)',
        '- url: https://old.example.com/preflight',
        '+ url: https://gate.example.com/preflight',
        '  scope: GLOBAL',
        '- targetAttributeIncludes: *',
        '+ targetAttributeIncludes: aws.account, k8s.namespace',
        `- secret: ${fingerprint('old')}`,
        `+ secret: ${fingerprint(SECRET)}`,
      ]),
    );
    expect(fake.preflightWebhooks).toEqual([
      expect.objectContaining({
        id: 'ac456d58-8fb2-4df4-86d8-ca81d7562739',
        version: 4,
        url: 'https://gate.example.com/preflight',
        headers: { 'X-Env': 'prod' },
        targetAttributeIncludes: ['aws.account', 'k8s.namespace'],
      }),
    ]);
    expect(fake.customWebhooks).toEqual([]);
  });

  test('a secret Steadybit does not show is sent again, never counted as up to date', async () => {
    await steadybit.restart({ hideSecrets: true });
    await connect(POLICIES);
    const { out } = await connect(POLICIES);
    expect(out).toContain('- secret: (not shown by Steadybit)');
    expect(out).toContain('preflight webhook "preflight-gate" updated');
  });

  test('two webhooks of the same name are refused: which one is meant cannot be told', async () => {
    const hook = {
      version: 0,
      scope: 'GLOBAL',
      name: 'preflight-gate',
      url: 'https://a/preflight',
      events: ['experiment.execution.preflight'],
      targetAttributeIncludes: [],
    };
    fake.preflightWebhooks = [
      { id: '11111111-1111-4111-8111-111111111111', ...hook },
      { id: '22222222-2222-4222-8222-222222222222', ...hook },
    ];
    await expect(connect(POLICIES)).rejects.toThrow(
      new BadInputError(
        '2 preflight webhooks are named "preflight-gate" in Steadybit (ids 11111111-1111-4111-8111-111111111111, 22222222-2222-4222-8222-222222222222): delete all but one, or choose another --name',
      ),
    );
    expect(posts()).toEqual([]);
  });

  test('a team token refused by the integrations API says an admin token is needed', async () => {
    fake.faults.push({ path: '/api/integrations/preflight', status: 403, body: { message: 'Forbidden' } });
    await expect(connect(POLICIES)).rejects.toThrow(/HTTP 403.*admin access token, not a team token/);
  });

  test('a condition that may read target attributes stops connect at its line, unless the keys are named or all are asked for', async () => {
    const stopped = await connect(READS_ATTRIBUTES);
    expect(stopped.code).toBe(1);
    expect(stopped.out).toMatch(
      /cond\.yaml:5:\d+ rules\[0\]\.condition: this condition may read target attributes.*--attribute <key>.*--all-attributes/,
    );
    expect(posts()).toEqual([]);
    expect((await connect(READS_ATTRIBUTES, { attribute: ['k8s.pod.name'] })).code).toBe(0);
    expect(fake.preflightWebhooks[0].targetAttributeIncludes).toEqual(['k8s.pod.name']);
    expect((await connect(POLICIES, { allAttributes: true })).code).toBe(0);
    expect(fake.preflightWebhooks[0].targetAttributeIncludes).toEqual(['*']);
  });

  test('usage errors: several secrets at once, no secret, plain http to a remote gate, no team for the probe', async () => {
    await expect(connect(POLICIES, {}, { WEBHOOK_SECRET: 'old,new' })).rejects.toThrow(
      /holds 2 secrets \(a rotation\)/,
    );
    await expect(connect(POLICIES, { secretEnv: 'NOPE' })).rejects.toThrow(
      /no webhook secret in the environment variable NOPE/,
    );
    await expect(connect(POLICIES, { gateUrl: 'http://gate.example.com' })).rejects.toThrow(/--insecure-http/);
    await expect(connect(POLICIES, { probe: true })).rejects.toThrow(/--probe-team/);
  });
});

describe('connect --probe against a running gate', () => {
  let gate: ServerProcess | undefined;
  afterEach(async () => {
    await gate?.stop();
    gate = undefined;
  });

  async function startGate(secret: string) {
    gate = await startServerProcess({ WEBHOOK_SECRET: secret, POLICY_DIR: dirs(POLICIES), AUDIT_LOG: 'off' });
    return gate.url;
  }

  test('the gate decides the probe run (signed preflight, events accepted), and the experiment is deleted', async () => {
    const url = await startGate(SECRET);
    const { code, out } = await connect(POLICIES, { gateUrl: url, check: true, probe: true, probeTeam: 'SRE' });
    expect(out).toContain(
      `check: ${url}/preflight verified the signature and decided a sample run (HTTP 403); one signed with another secret was refused (HTTP 401)`,
    );
    expect(out).toMatch(/probe: created experiment SRE-1 "preflight-gate probe [0-9a-f]{16}"/);
    expect(out).toMatch(
      /probe passed: the gate decided run \d+: Preflight webhook "preflight-gate" failed: preflight-gate probe [0-9a-f]{16} reached preflight-gate: decided under policy revision [0-9a-f]{12}/,
    );
    expect(out).toContain('probe: deleted experiment SRE-1');
    expect(code).toBe(0);
    await fake.settled();
    expect(fake.deliveries.map((d) => [d.kind, d.event, d.status])).toEqual([
      ['custom', 'experiment.execution.created', 202],
      ['preflight', 'experiment.execution.preflight', 403],
      ['custom', 'experiment.execution.failed', 202],
    ]);
    expect(fake.experiments).toEqual([]);
  });

  test('a gate with another secret stops connect at the check, before anything is written', async () => {
    const url = await startGate('another-secret');
    const { code, out } = await connect(POLICIES, { gateUrl: url, check: true, probe: true, probeTeam: 'SRE' });
    expect(out).toContain(
      `check FAILED: ${url}/preflight refused the signature made with the secret given to connect (HTTP 401: X-SB-Signature does not match the request body for any configured secret)`,
    );
    expect(out).toContain('nothing was changed in Steadybit');
    expect(code).toBe(1);
    expect(posts()).toEqual([]);
  });

  test("without the check, the probe fails with the gate's own reason, cleans up and deletes the webhooks it created", async () => {
    const url = await startGate('another-secret');
    const { code, out } = await connect(POLICIES, { gateUrl: url, probe: true, probeTeam: 'SRE' });
    expect(code).toBe(1);
    expect(out).toMatch(
      /probe FAILED: run \d+ ended FAILED without this gate's answer: .*X-SB-Signature does not match the request body for any configured secret/,
    );
    expect(out).toMatch(
      /restored: preflight webhook "preflight-gate" deleted \(id [0-9a-f-]{36}\): there was none before/,
    );
    expect(out).toMatch(/restored: custom webhook "preflight-gate events" deleted/);
    expect(out).toContain('connect failed: the webhooks are back as they were before it ran');
    expect(fake.experiments).toEqual([]);
    expect(fake.preflightWebhooks).toEqual([]);
    expect(fake.customWebhooks).toEqual([]);
  });

  test('a webhook that reaches no gate, or a run no webhook applies to, fails the probe and is taken back', async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const { code, out } = await connect(POLICIES, {
      check: true,
      probe: true,
      probeTeam: 'SRE',
      gateUrl: nobody,
      events: false,
      name: 'elsewhere',
    });
    // Not reachable from here either: the check cannot tell, so the probe decides (and fails).
    expect(out).toContain(
      `check skipped: cannot reach ${nobody}/preflight from here (ECONNREFUSED); the probe proves the wiring after the write`,
    );
    expect(code).toBe(1);
    expect(out).toMatch(/probe FAILED: run \d+ ended FAILED without this gate's answer/);
    expect(out).toMatch(/restored: preflight webhook "elsewhere" deleted/);
    expect(fake.preflightWebhooks).toEqual([]);
    const completed = await connect(POLICIES, { probe: true, probeTeam: 'OTHER', team: 'SRE', events: false });
    expect(completed.out).toMatch(/probe FAILED: run \d+ completed: no gate denied it/);
    expect(completed.out).toMatch(/restored: preflight webhook "preflight-gate" deleted/);
    expect(completed.code).toBe(1);
    expect(fake.preflightWebhooks).toEqual([]);
  });
});

describe('the check before writing', () => {
  test('a gate no answer reaches from here stops connect without --probe, naming the way on', async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const { code, out } = await connect(POLICIES, { check: true, gateUrl: nobody });
    expect(out).toContain(
      `check FAILED: cannot reach ${nobody}/preflight from here (ECONNREFUSED), so connect cannot tell whether the gate holds this secret; nothing was changed in Steadybit. Add --probe`,
    );
    expect(out).toContain('or --no-check');
    expect(code).toBe(1);
    expect(posts()).toEqual([]);
  });

  test('something else answering at the gate URL stops connect with its answer', async () => {
    const { code, out } = await connect(POLICIES, { check: true, gateUrl: fake.url });
    expect(out).toContain(
      `check FAILED: ${fake.url}/preflight answered HTTP 401: Unauthorized, without the X-Preflight-Decision-Id header every answer of preflight-gate carries: no preflight-gate answers at this address; nothing was changed in Steadybit`,
    );
    expect(code).toBe(1);
    // Only the sample went out, to the address given; no webhook was written.
    expect(posts().map((r) => r.path)).toEqual(['/preflight']);
  });

  test('nothing to write, nothing to check: an up-to-date connect does not call the gate', async () => {
    expect((await connect(POLICIES)).code).toBe(0);
    const again = await connect(POLICIES, { check: true, gateUrl: 'https://gate.example.com' });
    expect(again.out).not.toContain('check');
    expect(again.code).toBe(0);
  });
});

describe('putting the webhooks back', () => {
  const stored = storedWebhook;
  const failingProbe = { probe: true, probeTeam: 'OTHER', team: 'SRE', events: false } as const;

  test('an updated webhook gets every field, its secret and headers back, its id kept', async () => {
    fake.preflightWebhooks = [stored()];
    const { code, out } = await connect(POLICIES, failingProbe);
    expect(code).toBe(1);
    expect(out).toContain(
      `restored: preflight webhook "preflight-gate" put back as it was (id ac456d58-8fb2-4df4-86d8-ca81d7562739, url https://old.example.com/preflight, secret ${fingerprint('old')}; now version 5)`,
    );
    expect(fake.preflightWebhooks).toEqual([{ ...stored(), version: 5 }]);
  });

  test('a secret Steadybit does not show cannot be put back: the rest is, and the secret is named as not restored', async () => {
    await steadybit.restart({ hideSecrets: true });
    fake.preflightWebhooks = [stored()];
    const { code, out } = await connect(POLICIES, failingProbe);
    expect(code).toBe(1);
    expect(out).toContain('restored: preflight webhook "preflight-gate" put back as it was (id ac456d58');
    expect(out).toContain(
      `NOT restored: preflight webhook "preflight-gate": its previous secret could not be put back (Steadybit does not show secrets), it keeps the one connect set (${fingerprint(SECRET)}): set the previous one by hand in Steadybit Settings / Integrations / Preflight webhook`,
    );
    expect(out).toContain('connect failed and could not put everything back');
    expect(fake.preflightWebhooks).toEqual([{ ...stored(), secret: SECRET, version: 5 }]);
  });

  test('a webhook someone changed after connect wrote it is left as it is, and named with its earlier fields', async () => {
    fake.preflightWebhooks = [stored()];
    const someoneElse = { version: 9, url: 'https://someone.example.com/preflight' };
    const { code, out } = await connect(POLICIES, failingProbe, {}, (s) => {
      if (s.startsWith('probe: started run')) Object.assign(fake.preflightWebhooks[0], someoneElse);
    });
    expect(code).toBe(1);
    expect(out).toContain(
      `NOT restored: preflight webhook "preflight-gate" was changed in Steadybit after connect wrote it (version 9, connect wrote 4), so it is left as it is; check it, and if needed set it back by hand in Steadybit Settings / Integrations / Preflight webhook: url https://old.example.com/preflight, scope GLOBAL, events experiment.execution.preflight, targetAttributeIncludes *, secret ${fingerprint('old')}`,
    );
    expect(fake.preflightWebhooks).toEqual([expect.objectContaining(someoneElse)]);
  });

  test('a write whose answer was lost is taken back too: a create retried into two, an update applied before its retry was refused', async () => {
    // The client retries a POST whose connection was cut: the create is made twice, both are connect's.
    fake.faults.push({ path: '/api/integrations/preflight', method: 'POST', dropAnswer: true });
    const twice = await connect(POLICIES, failingProbe);
    expect(twice.code).toBe(1);
    expect(twice.out.match(/restored: preflight webhook "preflight-gate" deleted/g)).toHaveLength(2);
    expect(fake.preflightWebhooks).toEqual([]);
    // The update is applied, its answer lost, and the retry refused (the version moved on): connect
    // cannot know it wrote, reads the webhook again and puts it back.
    fake.preflightWebhooks = [stored()];
    fake.faults.push({ path: '/api/integrations/preflight', method: 'POST', dropAnswer: true });
    const err = (await connect(POLICIES, { events: false }).catch((e: unknown) => e)) as Error;
    expect(err.message.split('\n')).toEqual([
      `cannot update the preflight webhook "preflight-gate" at ${fake.url}: HTTP 422: {"message":"version conflict: the webhook was changed meanwhile"}`,
      `restored: preflight webhook "preflight-gate" put back as it was (id ac456d58-8fb2-4df4-86d8-ca81d7562739, url https://old.example.com/preflight, secret ${fingerprint('old')}; now version 5)`,
      'connect failed: the webhooks are back as they were before it ran',
    ]);
    expect(fake.preflightWebhooks).toEqual([{ ...stored(), version: 5 }]);
  });

  test('a webhook that cannot be deleted again is named, with how to delete it by hand', async () => {
    // The custom webhook is refused after the preflight webhook was created: that one must go again, and cannot.
    fake.faults.push({ path: '/api/integrations/webhook', method: 'POST', status: 422, body: { message: 'no' } });
    fake.faults.push({ method: 'DELETE', status: 403, body: { message: 'Forbidden' } });
    const err = (await connect(POLICIES).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(BadInputError);
    const id = String(fake.preflightWebhooks[0].id);
    expect(err.message.split('\n')).toEqual([
      `cannot create the custom webhook "preflight-gate events" at ${fake.url}: HTTP 422: {"message":"no"}`,
      expect.stringMatching(
        new RegExp(
          `^NOT restored: preflight webhook "preflight-gate" \\(id ${id}\\), created by connect, could not be deleted \\(HTTP 403.*Forbidden.*\\): delete it by hand: Steadybit Settings / Integrations / Preflight webhook, or DELETE /api/integrations/preflight/${id} with an admin token$`,
        ),
      ),
      'connect failed and could not put everything back: Steadybit may refuse runs until the webhooks above are fixed by hand',
    ]);
  });

  test('a write refused first changes nothing, and says so', async () => {
    fake.faults.push({ path: '/api/integrations/preflight', method: 'POST', status: 422, body: { message: 'no' } });
    await expect(connect(POLICIES)).rejects.toThrow(
      new BadInputError(
        `cannot create the preflight webhook "preflight-gate" at ${fake.url}: HTTP 422: {"message":"no"}\nconnect failed: nothing was changed in Steadybit`,
      ),
    );
    expect(fake.preflightWebhooks).toEqual([]);
    expect(fake.customWebhooks).toEqual([]);
  });
});
