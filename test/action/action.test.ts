import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../helpers/server-process';

/**
 * action.yml run the way the runner runs a composite action: each `run` step through
 * `bash --noprofile --norc -eo pipefail`, with `${{ inputs.* }}` expanded, GITHUB_ACTION_PATH at a
 * checkout of the action (this repository's files, no node_modules, no dist), GITHUB_PATH and
 * GITHUB_OUTPUT files, in a policy repository as the workspace. The `uses:` step (setup-node) is the
 * one thing not run: the machine's node stands in for it.
 */
interface Step { name?: string; id?: string; if?: string; uses?: string; run?: string; shell?: string; env?: Record<string, string> }
interface Action { inputs: Record<string, { default?: string }>; outputs: Record<string, { value: string }>; runs: { using: string; steps: Step[] } }
const ACTION_TEXT = readFileSync(join(ROOT, 'action.yml'), 'utf8');
const action = parse(ACTION_TEXT) as Action;
const DEFAULTS = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? '']));
const expand = (text: string, inputs: Record<string, string>) => text.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_m, k: string) => inputs[k] ?? '');

let work: string;
let actionPath: string;
let runnerTemp: string;
let githubPath: string;

function runStep(step: Step, workspace: string, inputs = DEFAULTS) {
  const output = join(workspace, '.github-output');
  const env: Record<string, string> = {
    PATH: [...readFileSync(githubPath, 'utf8').split('\n').filter(Boolean).reverse(), process.env.PATH].join(':'),
    HOME: process.env.HOME ?? '/root',
    GITHUB_ACTION_PATH: actionPath, GITHUB_PATH: githubPath, GITHUB_OUTPUT: output, GITHUB_WORKSPACE: workspace, RUNNER_TEMP: runnerTemp,
    ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, inputs)])),
  };
  const run = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', expand(step.run ?? '', inputs)], { cwd: workspace, env, encoding: 'utf8', timeout: 300_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, outputs: existsSync(output) ? readFileSync(output, 'utf8') : '' };
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

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'preflight-action-'));
  actionPath = join(work, 'action');
  runnerTemp = join(work, 'runner-temp');
  githubPath = join(work, 'github-path');
  mkdirSync(runnerTemp);
  writeFileSync(githubPath, '');
  // The action's checkout: the repository's files as git has them (committed or not), nothing built.
  const files = spawnSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  for (const file of files.filter((f) => existsSync(join(ROOT, f)))) {
    mkdirSync(dirname(join(actionPath, file)), { recursive: true });
    cpSync(join(ROOT, file), join(actionPath, file));
  }
  const started = Date.now();
  const install = runStep(step('Install preflight-gate'), policyRepo());
  if (install.status !== 0) throw new Error(`the install step failed (${install.status}):\n${install.stderr}`);
  process.stderr.write(`action install step: ${((Date.now() - started) / 1000).toFixed(0)} s; ${install.stderr.trim().split('\n').slice(-1)[0]}\n`);
}, 320_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('action.yml', () => {
  it('is a composite action whose steps use only declared inputs, and sets up the Node LTS first', () => {
    expect(action.runs.using).toBe('composite');
    const used = [...ACTION_TEXT.matchAll(/inputs\.([\w-]+)/g)].map((m) => m[1]);
    expect(used.filter((name) => !(name in action.inputs))).toEqual([]);
    expect(action.runs.steps[0]).toMatchObject({ uses: expect.stringMatching(/^actions\/setup-node@/), with: { 'node-version': '${{ inputs.node-version }}' } });
    expect(DEFAULTS['node-version']).toBe(/node:(\d+)-/.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1]);
    expect(action.outputs['junit-file'].value).toBe('${{ steps.test.outputs.junit-file }}');
    for (const s of action.runs.steps.filter((x) => x.run)) expect([s.name, s.shell]).toEqual([s.name, 'bash']);
  });

  it('installs the CLI from its own checkout with production dependencies only and puts it on the PATH', () => {
    expect(readFileSync(githubPath, 'utf8').trim().split('\n')).toEqual([join(runnerTemp, 'preflight-gate-cli', 'bin')]);
    for (const dev of ['typescript', 'jest', '@aws-cdk', 'ts-jest']) expect([dev, existsSync(join(actionPath, 'node_modules', dev))]).toEqual([dev, false]);
    expect(existsSync(join(runnerTemp, 'preflight-gate-cli', 'tsc'))).toBe(false);
    expect(existsSync(join(actionPath, 'dist', 'cli', 'main.js'))).toBe(true);
  });

  it('passes a repository whose policies are valid and whose tests pass, and writes the JUnit report', () => {
    const repo = policyRepo();
    expect(runStep(step('Validate policies'), repo).status).toBe(0);
    const test = runStep(step('Test policies'), repo);
    expect([test.status, test.stdout]).toEqual([0, expect.stringMatching(/^OK: 3 suites \(0 failed\)/m)]);
    expect(test.outputs).toBe('junit-file=preflight-gate-junit.xml\n');
    expect(readFileSync(join(repo, 'preflight-gate-junit.xml'), 'utf8')).toMatch(/<testsuites name="preflight-gate policy tests" tests="30" failures="0" time="\d+\.\d{3}">/);
  });

  it('fails on a failing policy test, with an annotation on the case and the failure in the JUnit report', () => {
    const suite = readFileSync(join(ROOT, 'policies', 'blocked-environments.test.yaml'), 'utf8').replace('  - name: a run in staging is allowed\n    expect:\n      decision: allow', '  - name: a run in staging is allowed\n    expect:\n      decision: deny');
    const repo = policyRepo({ 'policies/blocked-environments.test.yaml': suite });
    const test = runStep(step('Test policies'), repo);
    expect(test.status).toBe(1);
    expect(test.stdout).toMatch(/^::error file=policies\/blocked-environments\.test\.yaml,line=\d+,col=\d+,title=policy test failed%3A a run in staging is allowed::decision: expected deny, got allow/m);
    expect(readFileSync(join(repo, 'preflight-gate-junit.xml'), 'utf8')).toMatch(/failures="1"/);
  });

  it('fails the validate step with an annotation on the broken line', () => {
    const repo = policyRepo({ 'policies/broken.yaml': 'kind: Policy\nname: broken\nrules:\n  - environments: {}\n' });
    const validate = runStep(step('Validate policies'), repo);
    expect(validate.stdout).toMatch(/^::error file=policies\/broken\.yaml,line=4,col=\d+,title=preflight-gate::rules\[0\]\.environments: /m);
    expect(validate.status).toBe(1);
  });
});
