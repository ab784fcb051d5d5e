import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadSuites } from '../../src/cli/suite/load-suites';
import { ROOT } from '../helpers/server-process';
import { tempDir } from './run-cli';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const WORKFLOW = readFileSync(join(ROOT, 'examples', 'github-workflow.yml'), 'utf8');

/** The first fenced block of `lang` after `heading` in the README. */
function blockAfter(heading: string, lang: string): string {
  const start = README.indexOf(heading);
  expect(start).toBeGreaterThanOrEqual(0);
  const open = README.indexOf(`\`\`\`${lang}\n`, start) + lang.length + 4;
  return README.slice(open, README.indexOf('\n```', open) + 1);
}

interface Step { name?: string; run?: string; if?: string }
const steps = (parse(WORKFLOW) as { jobs: { check: { steps: Step[] } } }).jobs.check.steps;
const cliSteps = steps.filter((s) => s.run?.startsWith('preflight-gate '));
const putOnPath = steps.find((s) => s.name === 'Put preflight-gate on the PATH')?.run as string;

describe('the README GitHub Actions workflow for a policy repository', () => {
  it('is the same text as examples/github-workflow.yml', () => {
    expect(blockAfter('### GitHub Actions for a policy repository', 'yaml')).toBe(WORKFLOW);
  });

  it('runs on every pull request and validates, then tests', () => {
    const on = (parse(WORKFLOW) as { on: Record<string, unknown> }).on;
    expect(Object.keys(on)).toContain('pull_request');
    expect(cliSteps.map((s) => s.run?.split(' ').slice(1, 3).join(' '))).toEqual(['validate policies', 'test policies', 'test policies', 'replay --archive']);
  });

  describe('its commands, run verbatim in a policy repository', () => {
    const repo = tempDir({});
    // The checkout is this repository (its dist/ is built); the global install goes to a private
    // prefix, offline and without scripts (npm ci is the one step not run here: it would replace
    // this repository's node_modules).
    const prefix = join(repo.dir, '.npm-global');
    const env = { PATH: `${join(prefix, 'bin')}:${process.env.PATH}`, HOME: process.env.HOME ?? '/root', npm_config_prefix: prefix, npm_config_offline: 'true', npm_config_ignore_scripts: 'true' };
    const run = (command: string) => spawnSync('bash', ['--noprofile', '--norc', '-c', command], { cwd: repo.dir, env, encoding: 'utf8', timeout: 60000 });
    beforeAll(() => {
      cpSync(join(ROOT, 'policies'), join(repo.dir, 'policies'), { recursive: true });
      symlinkSync(ROOT, join(repo.dir, '.preflight-gate'));
      const installed = run(putOnPath);
      if (installed.status !== 0) throw new Error(`${putOnPath} failed:\n${installed.stderr}`);
    }, 60000);
    afterAll(repo.cleanup);

    it.each(cliSteps.filter((s) => s.if === undefined).map((s) => [s.name, s.run as string]))('%s passes on the bundled policies', (_name, command) => {
      const res = run(command);
      expect(res.stderr.replace(/npm warn.*\n/g, '')).toBe('');
      expect(res.status).toBe(0);
    });

    it('fails the validate step with an annotation on the broken line', () => {
      writeFileSync(join(repo.dir, 'policies', 'broken.yaml'), 'kind: Policy\nname: broken\nrules:\n  - environments: {}\n');
      const res = run(cliSteps[0].run as string);
      expect(res.stdout).toMatch(/^::error file=policies\/broken\.yaml,line=4,col=\d+,title=preflight-gate::rules\[0\]\.environments: /m);
      expect(res.status).toBe(1);
    });
  });
});

describe('the README test suite example', () => {
  it('is a valid suite', () => {
    const { dir, cleanup } = tempDir({ 'example.test.yaml': blockAfter('### Policy test suites', 'yaml') });
    try {
      const [suite] = loadSuites(dir);
      expect(suite.problems).toEqual([]);
      expect(suite.doc?.cases.map((c) => c.name)).toEqual(['a CPU attack in payments-prod is denied', 'a run in staging is allowed and tagged']);
    } finally {
      cleanup();
    }
  });
});
