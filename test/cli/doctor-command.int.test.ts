import { doctorCommand } from '../../src/cli/commands/doctor-command';
import { BadInputError } from '../../src/common/bad-input-error';
import { environment, type FakeSteadybit } from '../helpers/fake-steadybit';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { runAsync } from '../helpers/run-async';
import { CLI, tempDirs } from './run-cli';

const PROD = '2f0b0ab4-7c52-4b8e-9a0e-2d0a3b7a1c11';
const POLICIES = {
  'envs.yaml': [
    'kind: Policy',
    'name: no-prod-shutdowns',
    'match:',
    '  environments: [productoin, prod-alias]',
    'rules:',
    '  - environments: {blocked: [Production]}',
    '  - targetAttributes: {forbid: {k8s.namespace: [kube-system], aws.account: ["1"]}}',
    'modifications:',
    '  - {type: add_value_to_list_property, propertyKey: OWNER, value: sre}',
    '  - {type: set_property_value, propertyKey: TICKETS, value: x}',
    '  - {type: set_property_value, propertyKey: REVIEWD, value: x}',
    '',
  ].join('\n'),
  'aliases.yaml': `kind: EnvironmentAliases\naliases:\n  prod-alias: [${PROD}, 00000000-0000-4000-8000-000000000000]\n`,
};

const dirs = tempDirs();
let fake: FakeSteadybit;
fakeSteadybitEachTest((started) => {
  fake = started;
  fake.environments = [environment(PROD, 'production'), environment('5b8c1f0e-1111-4c4c-9d9d-0a0a0a0a0a0a', 'staging')];
  fake.preflightWebhooks = [
    {
      id: 'ac456d58-8fb2-4df4-86d8-ca81d7562739',
      version: 1,
      scope: 'GLOBAL',
      name: 'gate',
      url: 'https://gate.example/preflight',
      events: ['experiment.execution.preflight'],
      targetAttributeIncludes: ['k8s.*'],
    },
  ];
  fake.propertyDefinitions = [
    { key: 'OWNER', label: 'Owner', dataType: 'STRING', version: 0 },
    { key: 'TICKETS', label: 'Tickets', dataType: 'STRING_LIST', version: 0 },
    { key: 'REVIEWED', label: 'Reviewed', dataType: 'BOOLEAN', version: 0 },
  ];
});

const env = () => ({ STEADYBIT_URL: fake.url, STEADYBIT_TOKEN: 'test-token' });
async function doctor(
  files: Record<string, string>,
  format: 'text' | 'json' | 'github' = 'text',
  extra: Record<string, string> = {},
) {
  let out = '';
  const code = await doctorCommand(dirs(files), { format }, { ...env(), ...extra }, (s) => {
    out += s;
  });
  return { code, out };
}

test("every mismatch is a finding at its line: a typo'd environment, a stale alias id, an attribute the webhook does not send, unknown and wrongly typed properties", async () => {
  const { code, out } = await doctor(POLICIES);
  expect(code).toBe(1);
  const lines = out
    .trim()
    .split('\n')
    .map((l) => l.replace(/^.*?envs\.yaml|^.*?aliases\.yaml/, (m) => m.replace(/^.*\//, '')));
  expect(lines).toEqual([
    'envs.yaml:4:18 match.environments[0]: environment "productoin" is not an environment in Steadybit, nor an environment id, nor an alias, so it never matches a run: did you mean "production"?',
    'aliases.yaml:3:15 aliases.prod-alias: alias "prod-alias" lists "00000000-0000-4000-8000-000000000000", which is not an environment id (or name) in Steadybit',
    'envs.yaml:7:76 rules[1].targetAttributes.forbid.aws.account: preflight webhook "gate" does not send attribute "aws.account": add it to its targetAttributeIncludes (k8s.*), or every target lacks it',
    'envs.yaml:9:53 modifications[0].propertyKey: add_value_to_list_property needs a list property, but "OWNER" is STRING (use set_property_value, or a *_LIST property)',
    'envs.yaml:11:45 modifications[2].propertyKey: property "REVIEWD" is not a property definition in Steadybit: did you mean "REVIEWED"?',
    expect.stringMatching(
      /against http:\/\/127\.0\.0\.1:\d+: 3 environment reference\(s\), 2 attribute key\(s\), 3 modification propert\(ies\); Steadybit lists 2 environment\(s\): INVALID \(5 errors, 0 warnings\)$/,
    ),
  ]);
});

test('a deployment that matches the platform passes (exit 0); names compare without case', async () => {
  fake.preflightWebhooks[0].targetAttributeIncludes = ['*'];
  const { code, out } = await doctor({
    'p.yaml':
      'kind: Policy\nname: p\nmatch: {environments: [PRODUCTION, staging]}\nrules:\n  - targetAttributes: {forbid: {aws.account: ["1"]}}\n',
  });
  expect(code).toBe(0);
  expect(out).toMatch(/: valid \(0 errors, 0 warnings\)\n$/);
});

test('JSON and GitHub annotation output', async () => {
  const json = JSON.parse((await doctor(POLICIES, 'json')).out) as {
    ok: boolean;
    errors: number;
    problems: Array<{ path: string }>;
  };
  expect(json).toMatchObject({ ok: false, errors: 5 });
  expect(json.problems[0].path).toBe('match.environments[0]');
  const github = (await doctor(POLICIES, 'github')).out.split('\n');
  expect(github[0]).toMatch(
    /^::error file=.*envs\.yaml,line=4,col=18,title=preflight-gate::match\.environments\[0\]: environment "productoin"/,
  );
});

test.each([
  ['no platform settings', {}, 'doctor checks the policies against Steadybit: set STEADYBIT_URL'],
  [
    'a wrong token',
    { STEADYBIT_TOKEN: 'nope' },
    'cannot read the environments (GET /api/environments) from http://127.0.0.1:',
  ],
  [
    'the legacy platform with the default scheme',
    { PLATFORM: 'legacy' },
    'HTTP 401 (check the access token and STEADYBIT_AUTH_SCHEME=bearer)',
  ],
])('%s is a usage error (exit 2) with a clear message', async (_name, over, message) => {
  const e: Record<string, string> = { ...env(), ...over };
  if (over === undefined || Object.keys(over).length === 0) {
    delete e.STEADYBIT_URL;
    delete e.STEADYBIT_TOKEN;
  }
  if (e.PLATFORM === 'legacy') fake.platform = 'legacy';
  await expect(doctorCommand(dirs(POLICIES), { format: 'text' }, e, () => undefined)).rejects.toThrow(BadInputError);
  await expect(doctorCommand(dirs(POLICIES), { format: 'text' }, e, () => undefined)).rejects.toThrow(message);
});

test('the CLI runs it: exit 1 with findings, exit 2 when the platform is unreachable', async () => {
  const run = (e: Record<string, string>) =>
    runAsync(process.execPath, [CLI, 'doctor', dirs(POLICIES)], { env: { PATH: process.env.PATH, ...e } });
  const found = await run(env());
  expect(found.status).toBe(1);
  expect(found.stdout).toContain('"productoin" is not an environment in Steadybit');
  const url = fake.url;
  await fake.stop();
  const down = await run({ STEADYBIT_URL: url, STEADYBIT_TOKEN: 'test-token', STEADYBIT_TIMEOUT_MS: '500' });
  expect(down.status).toBe(2);
  expect(down.stderr).toMatch(
    /^preflight-gate: cannot read the environments \(GET \/api\/environments\) from http:\/\/127\.0\.0\.1:\d+: cannot connect \(ECONNREFUSED\)\n$/,
  );
}, 60000);
