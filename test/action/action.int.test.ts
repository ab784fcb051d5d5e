import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { parse } from 'yaml';
import { createServer, type Server } from 'node:http';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { commentMarker } from '../../src/github/pull-request-comment';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fake-github';
import { packBinPackage, startFakeNpmRegistry } from '../helpers/fake-npm-registry';
import { recordArchive, type RecordedArchive } from '../helpers/record-archive';
import { runAsync } from '../helpers/run-async';
import { ROOT } from '../helpers/server-process';
import { testCertificates } from '../helpers/test-certificates';

/**
 * action.yml run the way the runner runs a composite action: each `run` step through
 * `bash --noprofile --norc -eo pipefail`, with `${{ inputs.* }}` expanded, GITHUB_ACTION_PATH at a
 * checkout of the action (this repository's files, no node_modules, no dist), GITHUB_PATH and
 * GITHUB_OUTPUT files, in a policy repository as the workspace. The `uses:` step (setup-node) is the
 * one thing not run: the machine's node stands in for it.
 */
interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}
const ACTION_TEXT = readFileSync(join(ROOT, 'action.yml'), 'utf8');
const action = parse(ACTION_TEXT) as Action;
const DEFAULTS = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? '']));
const expand = (text: string, inputs: Record<string, string>) =>
  text.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_m, k: string) => inputs[k] ?? '');

let work: string;
let actionPath: string;
let runnerTemp: string;
let githubPath: string;

/** Outputs of the steps run so far in a test (`${{ steps.<id>.outputs.<name> }}`). */
const stepOutputs = new Map<string, Record<string, string>>();
const expandAll = (text: string, inputs: Record<string, string>) =>
  expand(text, inputs).replace(
    /\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}/g,
    (_m, id: string, name: string) => stepOutputs.get(id)?.[name] ?? '',
  );

/**
 * The machine's environment as a runner hands it to a step: its proxy, CA and npm settings
 * (HTTPS_PROXY, NODE_EXTRA_CA_CERTS, NPM_CONFIG_USERCONFIG...) stay. Left out: what `npm test` or
 * `npx` set for the scripts they start (`npm_config_globalconfig`, `npm_lifecycle_event`...), which a
 * runner's step does not have and which would hide an install that loses the machine's npm
 * configuration, and the variables of a CI that runs these tests (its GITHUB_*, RUNNER_*).
 */
function runnerEnvironment(): Record<string, string> {
  const kept = Object.entries(process.env).filter(([k]) => !/^(npm_|GITHUB_|RUNNER_|JEST_WORKER_ID$)/.test(k));
  return Object.fromEntries(kept.filter((e): e is [string, string] => e[1] !== undefined));
}

/** Runs one `run` step as the runner does; asynchronous, so servers of the test (fake GitHub) can answer it. */
async function runStep(
  step: Step,
  workspace: string,
  inputs = DEFAULTS,
  extra: { env?: Record<string, string>; path?: string[] } = {},
) {
  const output = join(workspace, '.github-output');
  writeFileSync(output, '');
  const env: Record<string, string> = {
    ...runnerEnvironment(),
    PATH: [
      ...(extra.path ?? []),
      ...readFileSync(githubPath, 'utf8').split('\n').filter(Boolean).reverse(),
      process.env.PATH,
    ].join(':'),
    HOME: process.env.HOME ?? '/root',
    GITHUB_ACTION_PATH: actionPath,
    GITHUB_PATH: githubPath,
    GITHUB_OUTPUT: output,
    GITHUB_WORKSPACE: workspace,
    RUNNER_TEMP: runnerTemp,
    GITHUB_STEP_SUMMARY: join(workspace, '.github-step-summary'),
    ...extra.env,
    ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expandAll(v, inputs)])),
  };
  const script = expandAll(step.run ?? '', inputs);
  const { status, stdout, stderr } = await runAsync(
    'bash',
    ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script],
    {
      cwd: workspace,
      env,
      killAfterMs: 300_000,
    },
  );
  const outputs = readFileSync(output, 'utf8');
  if (step.id)
    stepOutputs.set(
      step.id,
      Object.fromEntries(
        outputs
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      ),
    );
  return { status, stdout, stderr, outputs };
}

const step = (name: string) => {
  const found = action.runs.steps.find((s) => s.name === name);
  if (!found) throw new Error(`action.yml has no step "${name}"`);
  return found;
};

/** A policy repository: the starter policies plus `files` (path -> text). */
function policyRepo(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(work, 'repo-'));
  cpSync(join(ROOT, 'policies'), join(dir, 'policies'), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'preflight-action-'));
  actionPath = join(work, 'action');
  runnerTemp = join(work, 'runner-temp');
  githubPath = join(work, 'github-path');
  mkdirSync(runnerTemp);
  writeFileSync(githubPath, '');
  // The action's checkout: the repository's files as git has them (committed or not), nothing built.
  const files = spawnSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean);
  for (const file of files.filter((f) => existsSync(join(ROOT, f)))) {
    mkdirSync(dirname(join(actionPath, file)), { recursive: true });
    cpSync(join(ROOT, file), join(actionPath, file));
  }
  const started = Date.now();
  // package '' builds the CLI from the checkout: the default until the first release (after it,
  // this version's release on the npm registry, which test/release/npm-publish.int.test.ts rehearses).
  const install = await runStep(step('Install preflight-gate'), policyRepo(), { ...DEFAULTS, package: '' });
  if (install.status !== 0) throw new Error(`the install step failed (${install.status}):\n${install.stderr}`);
  process.stderr.write(
    `action install step: ${((Date.now() - started) / 1000).toFixed(0)} s; ${install.stderr.trim().split('\n').slice(-1)[0]}\n`,
  );
}, 320_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Replay: an archive recorded by the service under a policy that blocks prod; the pull request
// blocks staging instead, so prod runs are newly allowed and staging runs newly denied.
const BLOCK = (env: string) =>
  `kind: Policy\nname: blocked-environments\nrules:\n  - environments: { blocked: [${env}] }\n`;
const TOKEN = 'ghs_action-test';
const REPO = 'acme/policies';
let recorded: RecordedArchive;
let github: FakeGitHub;
beforeAll(async () => {
  recorded = await recordArchive({ policies: { 'blocked-environments.yaml': BLOCK('prod') }, runs: 60, seed: 11 });
  github = await startFakeGitHub({ token: TOKEN, repository: REPO });
}, 120_000);
afterAll(() => github.close());

/** A pull request's workspace: its policies, the archive copied in, the pull_request event. */
function pullRequest(policy: string): { repo: string; env: Record<string, string> } {
  const repo = mkdtempSync(join(work, 'pr-'));
  mkdirSync(join(repo, 'policies'));
  writeFileSync(join(repo, 'policies', 'blocked-environments.yaml'), policy);
  cpSync(recorded.archive, join(repo, 'decision-archive'), { recursive: true });
  writeFileSync(
    join(repo, 'event.json'),
    JSON.stringify({ action: 'synchronize', number: 5, pull_request: { number: 5 } }),
  );
  return {
    repo,
    env: { GITHUB_API_URL: github.url, GITHUB_REPOSITORY: REPO, GITHUB_EVENT_PATH: join(repo, 'event.json') },
  };
}

const REPLAY_STEPS = [
  'Fetch the decision archive',
  'Replay the decision archive',
  'Comment on the pull request',
  'Check the replay',
];

/** The replay steps in order, as the runner runs them (none of them is skipped by an earlier failure but the last). */
async function replaySteps(
  repo: string,
  inputs: Record<string, string>,
  extra: { env?: Record<string, string>; path?: string[] },
) {
  const all = { ...DEFAULTS, 'github-token': TOKEN, 'replay-since': '', ...inputs };
  const runs = [];
  for (const name of REPLAY_STEPS) {
    const run = await runStep(step(name), repo, all, extra);
    runs.push(run);
    if (run.status !== 0) break;
  }
  return runs;
}

describe('action.yml', () => {
  it('is a composite action whose steps use only declared inputs, and sets up the Node LTS first', () => {
    expect(action.runs.using).toBe('composite');
    const used = [...ACTION_TEXT.matchAll(/inputs\.([\w-]+)/g)].map((m) => m[1]);
    expect(used.filter((name) => !(name in action.inputs))).toEqual([]);
    expect(action.runs.steps[0]).toMatchObject({
      uses: expect.stringMatching(/^actions\/setup-node@/),
      with: { 'node-version': '${{ inputs.node-version }}' },
    });
    expect(DEFAULTS['node-version']).toBe(/node:(\d+)-/.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1]);
    expect(action.outputs['junit-file'].value).toBe('${{ steps.test.outputs.junit-file }}');
    for (const s of action.runs.steps.filter((x) => x.run)) expect([s.name, s.shell]).toEqual([s.name, 'bash']);
  });

  it('installs the CLI from its own checkout with production dependencies only and puts it on the PATH', () => {
    expect(readFileSync(githubPath, 'utf8').trim().split('\n')).toEqual([
      join(runnerTemp, 'preflight-gate-cli', 'bin'),
    ]);
    for (const dev of ['typescript', 'jest', '@aws-cdk', '@swc/core'])
      expect([dev, existsSync(join(actionPath, 'node_modules', dev))]).toEqual([dev, false]);
    expect(existsSync(join(runnerTemp, 'preflight-gate-cli', 'tsc'))).toBe(false);
    expect(existsSync(join(actionPath, 'dist', 'cli', 'main.js'))).toBe(true);
  });

  it("installs the package input with the machine's npm configuration: a registry behind a private CA in the global npmrc", async () => {
    // A self-hosted runner behind a TLS-intercepting proxy, or with an internal mirror: the global
    // npmrc ($PREFIX/etc/npmrc) names the registry and the CA that signs it; nothing else trusts it.
    const dir = mkdtempSync(join(work, 'ca-'));
    const certs = testCertificates(dir);
    const registry = await startFakeNpmRegistry(certs, {
      name: 'preflight-gate',
      version: '9.9.9-ca',
      tarball: packBinPackage(dir, 'preflight-gate', '9.9.9-ca', 'preflight-gate'),
    });
    try {
      const prefix = join(dir, 'machine-prefix');
      mkdirSync(join(prefix, 'etc'), { recursive: true });
      writeFileSync(join(prefix, 'etc', 'npmrc'), `registry=${registry.url}/\ncafile=${certs.ca}\n`);
      const temp = join(dir, 'runner-temp');
      mkdirSync(temp);
      const env = {
        PREFIX: prefix,
        NPM_CONFIG_FETCH_RETRIES: '0',
        NPM_CONFIG_CACHE: join(dir, 'npm-cache'),
        RUNNER_TEMP: temp,
        GITHUB_PATH: join(dir, 'github-path'),
        NODE_EXTRA_CA_CERTS: '',
      };
      const install = await runStep(
        step('Install preflight-gate'),
        policyRepo(),
        { ...DEFAULTS, package: 'preflight-gate@9.9.9-ca' },
        { env },
      );
      expect([install.status, install.stderr]).toEqual([
        0,
        expect.stringMatching(/^preflight-gate 9\.9\.9-ca installed in \d+ s$/m),
      ]);
      expect(registry.requests).toEqual(['GET /preflight-gate', 'GET /preflight-gate/-/preflight-gate-9.9.9-ca.tgz']);
      expect(readFileSync(join(dir, 'github-path'), 'utf8')).toBe(
        `${join(temp, 'preflight-gate-cli', 'node_modules', '.bin')}\n`,
      );
    } finally {
      await registry.close();
    }
  }, 120_000);

  it('passes a repository whose policies are valid and whose tests pass, and writes the JUnit report', async () => {
    const repo = policyRepo();
    expect((await runStep(step('Validate policies'), repo)).status).toBe(0);
    const test = await runStep(step('Test policies'), repo);
    const suites = readdirSync(join(ROOT, 'policies')).filter((f) => f.endsWith('.test.yaml'));
    expect([test.status, test.stdout]).toEqual([
      0,
      expect.stringMatching(new RegExp(`^OK: ${suites.length} suites \\(0 failed\\)`, 'm')),
    ]);
    // Without min-coverage no coverage is measured: nothing but the tests, as before the input existed.
    expect(test.stdout).not.toContain('Coverage');
    expect(test.outputs).toBe('junit-file=preflight-gate-junit.xml\n');
    // Every case of the bundled suites is in the report, none failed.
    const cases = suites.reduce(
      (n, f) => n + (parse(readFileSync(join(ROOT, 'policies', f), 'utf8')).cases as unknown[]).length,
      0,
    );
    expect(readFileSync(join(repo, 'preflight-gate-junit.xml'), 'utf8')).toMatch(
      new RegExp(`<testsuites name="preflight-gate policy tests" tests="${cases}" failures="0" time="\\d+\\.\\d{3}">`),
    );
  });

  it('strict: a warning (an environment one letter from a known one) fails the validate and test steps', async () => {
    const repo = policyRepo();
    const file = join(repo, 'policies', 'blocked-environments.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('blocked: [payments-prod]', 'blocked: [payments-prod, payments-prdo]'));
    const lenient = await runStep(step('Validate policies'), repo);
    expect([lenient.status, lenient.stdout]).toEqual([0, expect.stringContaining('did you mean "payments-prod"?')]);
    expect((await runStep(step('Test policies'), repo)).status).toBe(0);
    const validate = await runStep(step('Validate policies'), repo, { ...DEFAULTS, strict: 'true' });
    expect([validate.status, validate.stdout]).toEqual([
      1,
      expect.stringMatching(/: INVALID \(0 errors, 1 warning; --strict: warnings fail\)$/m),
    ]);
    const test = await runStep(step('Test policies'), repo, { ...DEFAULTS, strict: 'true' });
    expect([test.status, test.stderr]).toEqual([
      1,
      expect.stringContaining('1 warning (see above) and --strict: failing'),
    ]);
  });

  it('signal-sources: the validate step fails on a rule naming a source the file does not define', async () => {
    const policy =
      'kind: Policy\nname: signals\nrules:\n  - alerts: { matchers: [\'severity="critical"\'], source: eu-wset }\n';
    const repo = policyRepo({
      'policies/signals.yaml': policy,
      'signal-sources.yaml': 'alertmanager:\n  eu-west: { url: "https://am.eu.example.com" }\n',
    });
    // Without the input, the file is not asked for: the policy set is valid.
    expect((await runStep(step('Validate policies'), repo)).status).toBe(0);
    const checked = await runStep(step('Validate policies'), repo, {
      ...DEFAULTS,
      'signal-sources': 'signal-sources.yaml',
    });
    expect([checked.status, checked.stdout]).toEqual([
      1,
      expect.stringMatching(
        /^::error file=policies\/signals\.yaml,line=4,col=58,title=preflight-gate::rules\[0\]\.alerts\.source: alertmanager "eu-wset" is not defined in the signal sources file signal-sources\.yaml: did you mean "eu-west"\?/m,
      ),
    ]);
    const fixed = policyRepo({
      'policies/signals.yaml': policy.replace('eu-wset', 'eu-west'),
      'signal-sources.yaml': 'alertmanager:\n  eu-west: { url: "https://am.eu.example.com" }\n',
    });
    const valid = await runStep(step('Validate policies'), fixed, {
      ...DEFAULTS,
      'signal-sources': 'signal-sources.yaml',
      strict: 'true',
    });
    expect(valid.status).toBe(0);
    // A file that is not there fails the step (fail closed), naming the flag.
    const missing = await runStep(step('Validate policies'), repo, { ...DEFAULTS, 'signal-sources': 'nowhere.yaml' });
    expect([missing.status, missing.stderr]).toEqual([2, expect.stringContaining('--signal-sources')]);
  });

  it('min-coverage: the test step reports the coverage (annotations, job summary) and fails below it', async () => {
    const covered = policyRepo();
    const met = await runStep(step('Test policies'), covered, { ...DEFAULTS, 'min-coverage': '100' });
    expect([met.status, met.stdout]).toEqual([
      0,
      expect.stringMatching(/^Coverage: 100\.0% \(\d+ of \d+ items.* meets the minimum of 100% \(--min-coverage\)$/m),
    ]);
    expect(readFileSync(join(covered, '.github-step-summary'), 'utf8')).toContain(
      '### preflight-gate policy test coverage: 100.0%',
    );
    // A policy no case of the starter suites reaches.
    const untested =
      'kind: Policy\nname: untested\nmatch: { teams: [NOBODY] }\nrules:\n  - environments: { blocked: [prod] }\n';
    const gap = policyRepo({ 'policies/untested.yaml': untested });
    const below = await runStep(step('Test policies'), gap, { ...DEFAULTS, 'min-coverage': '100' });
    expect(below.status).toBe(1);
    expect(below.stdout).toMatch(
      /^::warning file=policies\/untested\.yaml,line=1,col=1,title=preflight-gate coverage::policy untested: no case made it apply/m,
    );
    expect(below.stdout).toMatch(
      /^::error title=preflight-gate coverage::Coverage: [\d.]+%25 .* is below the minimum of 100%25/m,
    );
    expect(below.stderr).toMatch(/is below the minimum of 100% \(--min-coverage\)/);
    expect(readFileSync(join(gap, '.github-step-summary'), 'utf8')).toContain(
      '<details><summary>Not covered (2)</summary>',
    );
    // The JUnit report is written either way.
    expect(readFileSync(join(gap, 'preflight-gate-junit.xml'), 'utf8')).toMatch(/failures="0"/);
    const invalid = await runStep(step('Test policies'), covered, { ...DEFAULTS, 'min-coverage': 'most' });
    expect([invalid.status, invalid.stderr]).toEqual([
      2,
      expect.stringContaining('--min-coverage must be a percentage'),
    ]);
  });

  it('coverage-changed: the test step fails on a rule the pull request adds that no case judges', async () => {
    // The base branch checked out in base/: the same policies, so nothing changed yet.
    const repo = policyRepo();
    cpSync(join(ROOT, 'policies'), join(repo, 'base', 'policies'), { recursive: true });
    const same = await runStep(step('Test policies'), repo, { ...DEFAULTS, 'coverage-changed': 'base/policies' });
    expect([same.status, same.stdout]).toEqual([
      0,
      expect.stringMatching(/^Changed since base\/policies: no rule or time-window branch added or edited/m),
    ]);
    writeFileSync(
      join(repo, 'policies', 'untested.yaml'),
      'kind: Policy\nname: untested\nmatch: { teams: [NOBODY] }\nrules:\n  - environments: { blocked: [prod] }\n',
    );
    const added = await runStep(step('Test policies'), repo, { ...DEFAULTS, 'coverage-changed': 'base/policies' });
    expect(added.status).toBe(1);
    expect(added.stdout).toMatch(
      /^::error file=policies\/untested\.yaml,line=5,col=5,title=preflight-gate coverage::rule rules\[0\]\.environments of policy untested \(added\): no case made it judge/m,
    );
    expect(added.stderr).toMatch(
      /Changed since base\/policies: 1 of 1 added or edited items .* not covered \(--coverage-changed\)/,
    );
    const missing = await runStep(step('Test policies'), repo, { ...DEFAULTS, 'coverage-changed': 'main/policies' });
    expect([missing.status, missing.stderr]).toEqual([
      2,
      expect.stringContaining('--coverage-changed main/policies: does not exist'),
    ]);
  });

  it('fails on a failing policy test, with an annotation on the case and the failure in the JUnit report', async () => {
    const suite = readFileSync(join(ROOT, 'policies', 'blocked-environments.test.yaml'), 'utf8').replace(
      '  - name: a run in staging is allowed\n    expect:\n      decision: allow',
      '  - name: a run in staging is allowed\n    expect:\n      decision: deny',
    );
    const repo = policyRepo({ 'policies/blocked-environments.test.yaml': suite });
    const test = await runStep(step('Test policies'), repo);
    expect(test.status).toBe(1);
    expect(test.stdout).toMatch(
      /^::error file=policies\/blocked-environments\.test\.yaml,line=\d+,col=\d+,title=policy test failed%3A a run in staging is allowed::decision: expected deny, got allow/m,
    );
    expect(readFileSync(join(repo, 'preflight-gate-junit.xml'), 'utf8')).toMatch(/failures="1"/);
  });

  it('fails the validate step with an annotation on the broken line', async () => {
    const repo = policyRepo({ 'policies/broken.yaml': 'kind: Policy\nname: broken\nrules:\n  - environments: {}\n' });
    const validate = await runStep(step('Validate policies'), repo);
    expect(validate.stdout).toMatch(
      /^::error file=policies\/broken\.yaml,line=4,col=\d+,title=preflight-gate::rules\[0\]\.environments: /m,
    );
    expect(validate.status).toBe(1);
  });

  it('declares the replay steps: each runs only with replay-archive, and the comment only on a pull request', () => {
    for (const name of REPLAY_STEPS)
      expect([name, step(name).if]).toEqual([name, expect.stringContaining("inputs.replay-archive != ''")]);
    expect(step('Comment on the pull request').if).toContain('github.event.pull_request.number');
    expect(DEFAULTS).toMatchObject({
      'replay-since': '14d',
      'replay-fail-on': 'newly-allowed',
      'replay-comment': 'true',
      'github-token': '${{ github.token }}',
    });
    expect(action.outputs['replay-report'].value).toBe('${{ steps.replay.outputs.report }}');
  });

  it('replays the archive against the pull request, comments once (edited on the next push) and fails the check on newly allowed runs', async () => {
    const loosened = pullRequest(BLOCK('staging'));
    const [fetched, replayed, commented, checked] = await replaySteps(
      loosened.repo,
      { 'replay-archive': 'decision-archive' },
      { env: loosened.env },
    );
    expect(fetched.outputs).toBe('path=decision-archive\n');
    expect([replayed.status, replayed.outputs]).toEqual([
      0,
      `report=${join(runnerTemp, 'preflight-gate-replay.md')}\nexit-code=1\n`,
    ]);
    const report = readFileSync(join(runnerTemp, 'preflight-gate-replay.md'), 'utf8');
    expect(report).toMatch(/^### preflight-gate replay: \d+ archived runs would be decided differently/);
    expect(report).toMatch(/\| ⚠️ Newly allowed \(a guardrail loosened\) \| [1-9]\d* \|/);
    expect(readFileSync(join(loosened.repo, '.github-step-summary'), 'utf8')).toBe(report);
    expect([commented.status, commented.stdout]).toEqual([
      0,
      expect.stringMatching(/^created https:\/\/github\.example\/acme\/policies\/pull\/5#issuecomment-\d+\n$/),
    ]);
    expect(github.comments.get(5)?.map((c) => c.body)).toEqual([`${commentMarker('replay policies')}\n${report}`]);
    expect(checked.status).toBe(1);
    expect(checked.stdout).toContain('::error title=preflight-gate replay::the replay found newly-allowed runs');

    // The next push puts the guardrail back: the same comment now says nothing changes, and the check passes.
    const fixed = pullRequest(BLOCK('prod'));
    const again = await replaySteps(fixed.repo, { 'replay-archive': 'decision-archive' }, { env: fixed.env });
    expect(again.map((r) => r.status)).toEqual([0, 0, 0, 0]);
    expect(again[2].stdout).toMatch(/^updated /);
    expect(github.comments.get(5)).toHaveLength(1);
    expect(github.comments.get(5)?.[0].body).toContain(
      '### preflight-gate replay: no archived run would be decided differently',
    );
  }, 180_000);

  it('fetches the archive from an http(s) URL with the header given, and reads an s3:// prefix itself (no aws CLI)', async () => {
    // The whole archive as one gzipped file, as a bucket would hold a copy of it.
    const gz = gzipSync(
      Buffer.concat(
        readdirSync(recorded.archive)
          .sort()
          .map((name) =>
            (name.endsWith('.gz') ? gunzipSync : (b: Buffer) => b)(readFileSync(join(recorded.archive, name))),
          ),
      ),
    );
    const server: Server = createServer((req, res) => {
      if (req.headers.authorization !== 'Bearer archive-token') return res.writeHead(403).end('forbidden');
      if (req.url !== '/bucket/decisions.jsonl.gz?X-Amz-Signature=abc') return res.writeHead(404).end('no such key');
      res.writeHead(200, { 'content-type': 'application/gzip' }).end(gz);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/bucket`;
    try {
      const same = pullRequest(BLOCK('prod'));
      const inputs = {
        'replay-archive': `${base}/decisions.jsonl.gz?X-Amz-Signature=abc`,
        'replay-archive-header': 'Authorization: Bearer archive-token',
        'replay-comment': 'false',
      };
      const fetched = await runStep(
        step('Fetch the decision archive'),
        same.repo,
        { ...DEFAULTS, ...inputs },
        { env: same.env },
      );
      expect([fetched.status, fetched.outputs]).toEqual([
        0,
        `path=${join(runnerTemp, 'preflight-gate-archive', 'decisions-fetched.jsonl')}\n`,
      ]);
      const replayed = await runStep(
        step('Replay the decision archive'),
        same.repo,
        { ...DEFAULTS, ...inputs, 'replay-since': '' },
        { env: same.env },
      );
      expect(replayed.outputs).toContain('exit-code=0\n');
      expect(readFileSync(join(runnerTemp, 'preflight-gate-replay.md'), 'utf8')).toMatch(
        /^### preflight-gate replay: no archived run would be decided differently/,
      );

      const missing = await runStep(
        step('Fetch the decision archive'),
        same.repo,
        { ...DEFAULTS, ...inputs, 'replay-archive': `${base}/gone.jsonl.gz` },
        { env: same.env },
      );
      expect(missing.status).not.toBe(0);
      expect(missing.stderr).toMatch(/curl: \(22\).*404/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }

    // s3://: replay reads the bucket itself (the AWS SDK, credentials from the job's environment), no aws CLI:
    // a local S3-compatible server (s3rver) holds the recorded archive files.
    const s3Dir = mkdtempSync(join(work, 's3-'));
    const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir });
    const { port } = await s3.run();
    const endpoint = `http://127.0.0.1:${port}`;
    try {
      const client = new S3Client({
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      await client.send(new CreateBucketCommand({ Bucket: 'acme-archive' }));
      for (const name of readdirSync(recorded.archive)) {
        await client.send(
          new PutObjectCommand({
            Bucket: 'acme-archive',
            Key: `decisions/${name}`,
            Body: readFileSync(join(recorded.archive, name)),
          }),
        );
      }
      const bin = mkdtempSync(join(work, 'bin-'));
      writeFileSync(join(bin, 'aws'), '#!/bin/bash\necho "the aws CLI is not needed" >&2\nexit 1\n', { mode: 0o755 });
      const onS3 = pullRequest(BLOCK('staging'));
      const env = {
        ...onS3.env,
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
        DECISION_ARCHIVE_S3_ENDPOINT: endpoint,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      };
      const runs = await replaySteps(
        onS3.repo,
        { 'replay-archive': 's3://acme-archive/decisions', 'replay-comment': 'false', 'replay-fail-on': 'none' },
        { env, path: [bin] },
      );
      expect(runs[0].outputs).toBe('path=s3://acme-archive/decisions\n');
      expect(runs.map((r) => r.status)).toEqual([0, 0, 0, 0]);
      expect(runs[1].outputs).toContain('exit-code=0\n');
      expect(readFileSync(join(runnerTemp, 'preflight-gate-replay.md'), 'utf8')).toMatch(
        /\| ⚠️ Newly allowed \(a guardrail loosened\) \| [1-9]\d* \|/,
      );
    } finally {
      await s3.close();
    }
  }, 180_000);

  it('a replay that cannot run (an invalid policy set, a missing archive) says why in the comment and fails the check', async () => {
    const broken = pullRequest(
      'kind: Policy\nname: blocked-environments\nrules:\n  - environments: { blockd: [prod] }\n',
    );
    github.comments.delete(5);
    const [, replayed, commented, checked] = await replaySteps(
      broken.repo,
      { 'replay-archive': 'decision-archive' },
      { env: broken.env },
    );
    expect(replayed.outputs).toContain('exit-code=2\n');
    expect(commented.stdout).toMatch(/^created /);
    expect(github.comments.get(5)?.[0].body).toMatch(
      /^<!-- preflight-gate: replay policies -->\n### preflight-gate replay could not run\n\n```\npreflight-gate: the policy set in policies is invalid/,
    );
    expect([checked.status, checked.stdout]).toEqual([
      1,
      expect.stringContaining('::error title=preflight-gate replay::the replay could not run'),
    ]);

    const absent = await runStep(
      step('Fetch the decision archive'),
      broken.repo,
      { ...DEFAULTS, 'replay-archive': 'no-such-dir' },
      { env: broken.env },
    );
    expect([absent.status, absent.stderr]).toEqual([
      1,
      expect.stringContaining(
        '::error title=preflight-gate replay::replay-archive: no-such-dir does not exist in the workspace',
      ),
    ]);
  }, 180_000);

  // prove and diff beside replay: a property that prod is never allowed, the base blocking prod, and a
  // pull request that blocks staging instead; the three reports share the one comment it edits.
  const PROPERTY =
    'kind: PolicyProperty\nname: no-prod\ndescription: no run in prod is ever allowed\nnever:\n  match: { environments: [prod] }\n';
  const ALL_STEPS = [
    'Prove the properties',
    'Diff against the base policies',
    'Fetch the decision archive',
    'Replay the decision archive',
    'Comment on the pull request',
    'Check the replay',
    'Check the proof and the diff',
  ];
  /** A pull request (number 6) with the property and the base branch's policies in base/policies. */
  function provedPullRequest(policy: string) {
    const pr = pullRequest(policy);
    writeFileSync(join(pr.repo, 'policies', 'no-prod.property.yaml'), PROPERTY);
    mkdirSync(join(pr.repo, 'base', 'policies'), { recursive: true });
    writeFileSync(join(pr.repo, 'base', 'policies', 'blocked-environments.yaml'), BLOCK('prod'));
    writeFileSync(
      join(pr.repo, 'event.json'),
      JSON.stringify({ action: 'synchronize', number: 6, pull_request: { number: 6 } }),
    );
    return pr;
  }
  /** The steps in order as the runner runs them: a failed step skips the rest (their `if:` asks success()). */
  async function stepsOf(names: string[], repo: string, inputs: Record<string, string>, env: Record<string, string>) {
    const all = { ...DEFAULTS, 'github-token': TOKEN, 'replay-since': '', ...inputs };
    const runs = new Map<string, Awaited<ReturnType<typeof runStep>>>();
    for (const name of names) {
      const run = await runStep(step(name), repo, all, { env });
      runs.set(name, run);
      if (run.status !== 0) break;
    }
    return runs;
  }

  it('declares the prove and diff steps: prove by default, diff with diff-base, failing on newly allowed runs', () => {
    expect(DEFAULTS).toMatchObject({ prove: 'true', 'diff-base': '', 'diff-fail-on': 'newly-allowed' });
    expect(step('Prove the properties').if).toBe("inputs.prove == 'true'");
    expect(step('Diff against the base policies').if).toBe("inputs.diff-base != ''");
    expect(step('Comment on the pull request').if).toMatch(/inputs\.prove == 'true' \|\| inputs\.diff-base != ''/);
    // It runs after a failed replay check too (the runner skips a step after a failure unless its if says otherwise).
    expect(step('Check the proof and the diff').if).toBe(
      "!cancelled() && (inputs.prove == 'true' || inputs.diff-base != '')",
    );
    expect(action.outputs).toMatchObject({
      'prove-report': { value: '${{ steps.prove.outputs.report }}' },
      'prove-exit-code': { value: '${{ steps.prove.outputs.exit-code }}' },
      'diff-report': { value: '${{ steps.diff.outputs.report }}' },
      'diff-exit-code': { value: '${{ steps.diff.outputs.exit-code }}' },
    });
  });

  it('proves the properties and diffs against the base beside replay: annotations, one comment with all three, a failed check; the next push fixes it', async () => {
    const loosened = provedPullRequest(BLOCK('staging'));
    const inputs = { 'replay-archive': 'decision-archive', 'diff-base': 'base/policies' };
    const runs = await stepsOf(ALL_STEPS, loosened.repo, inputs, loosened.env);
    const proved = runs.get('Prove the properties');
    expect([proved?.status, proved?.outputs]).toEqual([
      0,
      `report=${join(runnerTemp, 'preflight-gate-prove.md')}\nexit-code=1\n`,
    ]);
    // The counterexample at the property, its witness in the annotation.
    expect(proved?.stdout).toMatch(
      /^::error file=policies\/no-prod\.property\.yaml,line=1,col=1,title=preflight-gate prove%3A counterexample::counterexample: property no-prod: env .*"prod".*%0Athe set allows it: Allowed.*%0Awitness: now \S+, payload \{"event":"experiment\.execution\.preflight"/m,
    );
    const diffed = runs.get('Diff against the base policies');
    expect(diffed?.outputs).toBe(`report=${join(runnerTemp, 'preflight-gate-diff.md')}\nexit-code=1\n`);
    // Newly allowed (fails the check): an error at the changed rule; newly denied: a warning there.
    expect(diffed?.stdout).toMatch(
      /^::error file=policies\/blocked-environments\.yaml,line=4,col=31,title=preflight-gate diff%3A newly-allowed::newly-allowed: base blocked-environments rules\[0\]\.environments denies: env .*"prod"/m,
    );
    expect(diffed?.stdout).toMatch(
      /^::warning file=policies\/blocked-environments\.yaml,line=4,col=31,title=preflight-gate diff%3A newly-denied::newly-denied: /m,
    );
    const prove = readFileSync(join(runnerTemp, 'preflight-gate-prove.md'), 'utf8');
    const diff = readFileSync(join(runnerTemp, 'preflight-gate-diff.md'), 'utf8');
    const replay = readFileSync(join(runnerTemp, 'preflight-gate-replay.md'), 'utf8');
    expect(prove).toMatch(/^### preflight-gate prove: 0 proven, 1 counterexample\(s\), 0 unknown\n/);
    expect(prove).toMatch(/\| no-prod \| \*\*counterexample\*\* \|/);
    expect(diff).toMatch(/^### preflight-gate diff: .*\n\n\*\*1 class\(es\) newly allowed, 1 newly denied\.\*\*/);
    // One comment, the replay first, then the proof and the diff; the job summary has all three.
    expect(runs.get('Comment on the pull request')?.stdout).toMatch(/^created /);
    expect(github.comments.get(6)?.map((c) => c.body)).toEqual([
      `${commentMarker('replay policies')}\n${replay}\n${prove}\n${diff}`,
    ]);
    const summary = readFileSync(join(loosened.repo, '.github-step-summary'), 'utf8');
    for (const report of [prove, diff, replay]) expect(summary).toContain(report);
    // The replay's check fails first; the proof's and the diff's check runs after it (!cancelled()) and says why too.
    expect(runs.get('Check the replay')?.status).toBe(1);
    const checked = await runStep(step('Check the proof and the diff'), loosened.repo, { ...DEFAULTS, ...inputs });
    expect(checked.status).toBe(1);
    expect(checked.stdout).toContain('::error title=preflight-gate prove::a property has a counterexample');
    expect(checked.stdout).toContain(
      '::error title=preflight-gate diff::the diff against base/policies found newly-allowed runs',
    );

    // The next push blocks prod again: proven, nothing differs, the same comment edited, a green check.
    const fixed = provedPullRequest(BLOCK('prod'));
    const again = await stepsOf(ALL_STEPS, fixed.repo, inputs, fixed.env);
    expect([...again.values()].map((r) => r.status)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(again.get('Prove the properties')?.stdout).toBe('policies/no-prod.property.yaml: no-prod: proven\n');
    expect(again.get('Comment on the pull request')?.stdout).toMatch(/^updated /);
    expect(github.comments.get(6)).toHaveLength(1);
    const body = github.comments.get(6)?.[0].body ?? '';
    expect(body).toContain('### preflight-gate prove: 1 proven, 0 counterexample(s), 0 unknown');
    expect(body).toContain('**No run would be decided differently.**');
    expect(again.get('Check the proof and the diff')?.stdout).toContain(
      'preflight-gate diff: nothing that fails the check (newly-allowed)',
    );
  }, 240_000);

  it('diff-fail-on none reports a newly allowed class as a warning and passes; prove false skips the proof', async () => {
    const loosened = provedPullRequest(BLOCK('staging'));
    const inputs = { 'diff-base': 'base/policies', 'diff-fail-on': 'none', prove: 'false', 'replay-comment': 'false' };
    const diffed = await runStep(step('Diff against the base policies'), loosened.repo, { ...DEFAULTS, ...inputs });
    expect(diffed.outputs).toContain('exit-code=0\n');
    expect(diffed.stdout).toMatch(
      /^::warning file=policies\/blocked-environments\.yaml,line=4,col=31,title=preflight-gate diff%3A newly-allowed::/m,
    );
    expect(diffed.stdout).not.toMatch(/^::error/m);
    stepOutputs.delete('prove');
    const checked = await runStep(step('Check the proof and the diff'), loosened.repo, { ...DEFAULTS, ...inputs });
    expect([checked.status, checked.stdout]).toEqual([0, 'preflight-gate diff: nothing that fails the check (none)\n']);
  }, 120_000);

  it('a proof or a diff that cannot run (a property that no longer loads, no base directory) fails the check, saying why', async () => {
    const broken = provedPullRequest(BLOCK('prod'));
    writeFileSync(join(broken.repo, 'policies', 'no-prod.property.yaml'), PROPERTY.replace('match:', 'mach:'));
    const inputs = { 'diff-base': 'main/policies' };
    const proved = await runStep(step('Prove the properties'), broken.repo, { ...DEFAULTS, ...inputs });
    expect(proved.outputs).toContain('exit-code=2\n');
    expect(proved.stderr).toMatch(/policies\/no-prod\.property\.yaml:5:3 never\.mach: unknown key/);
    expect(readFileSync(join(runnerTemp, 'preflight-gate-prove.md'), 'utf8')).toMatch(
      /^### preflight-gate prove could not run\n/,
    );
    // validate points at it too, as an annotation on the line.
    const validate = await runStep(step('Validate policies'), broken.repo);
    expect([validate.status, validate.stdout]).toEqual([
      1,
      expect.stringMatching(
        /^::error file=policies\/no-prod\.property\.yaml,line=5,col=3,title=preflight-gate::never\.mach: unknown key/m,
      ),
    ]);
    const diffed = await runStep(step('Diff against the base policies'), broken.repo, { ...DEFAULTS, ...inputs });
    expect([diffed.outputs, diffed.stderr]).toEqual([
      expect.stringContaining('exit-code=2\n'),
      expect.stringContaining('diff-base: main/policies is not a directory in the workspace'),
    ]);
    const checked = await runStep(step('Check the proof and the diff'), broken.repo, { ...DEFAULTS, ...inputs });
    expect(checked.status).toBe(1);
    expect(checked.stdout).toContain('::error title=preflight-gate prove::prove could not run');
    expect(checked.stdout).toContain('::error title=preflight-gate diff::the diff could not run');
  }, 120_000);
});
