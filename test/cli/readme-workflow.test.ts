import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadSuites } from '../../src/cli/suite/load-suites';
import { testPolicyDir } from '../../src/cli/suite/test-run';
import { ROOT } from '../helpers/server-process';
import { tempDir } from './run-cli';

/** The policy-as-code workflow moved from the README to docs/policy-workflow.md (the README links to it). */
const DOC = readFileSync(join(ROOT, 'docs', 'policy-workflow.md'), 'utf8');
const WORKFLOW = readFileSync(join(ROOT, 'examples', 'github-workflow.yml'), 'utf8');

/** The first fenced block of `lang` after `heading` in docs/policy-workflow.md. */
function blockAfter(heading: string, lang: string): string {
  const start = DOC.indexOf(heading);
  expect(start).toBeGreaterThanOrEqual(0);
  const open = DOC.indexOf(`\`\`\`${lang}\n`, start) + lang.length + 4;
  return DOC.slice(open, DOC.indexOf('\n```', open) + 1);
}

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  if?: string;
}
const steps = (parse(WORKFLOW) as { jobs: { check: { steps: Step[] } } }).jobs.check.steps;
const inputs = Object.keys(
  (parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> }).inputs,
);

describe('the GitHub Actions workflow for a policy repository of docs/policy-workflow.md', () => {
  it('is the same text as examples/github-workflow.yml', () => {
    expect(blockAfter('## GitHub Actions for a policy repository', 'yaml')).toBe(WORKFLOW);
  });

  it('runs on every pull request, checks the repository out and uses the action of this repository in one step', () => {
    const on = (parse(WORKFLOW) as { on: Record<string, unknown> }).on;
    expect(Object.keys(on)).toContain('pull_request');
    expect(steps[0].uses).toMatch(/^actions\/checkout@/);
    const gate = steps.filter((s) => /preflight-gate@/.test(s.uses ?? ''));
    expect(gate).toHaveLength(1);
    expect(Object.keys(gate[0].with ?? {}).filter((k) => !inputs.includes(k))).toEqual([]);
  });

  it('replays the decision archive through the action on pull requests only, with the permission to comment', () => {
    const gate = steps.find((s) => /preflight-gate@/.test(s.uses ?? ''));
    expect(gate?.with).toMatchObject({
      'replay-archive': "${{ github.event_name == 'pull_request' && vars.DECISION_ARCHIVE || '' }}",
      'replay-fail-on': 'newly-allowed',
    });
    expect((parse(WORKFLOW) as { permissions: Record<string, string> }).permissions).toMatchObject({
      'pull-requests': 'write',
    });
  });

  it('proves the properties and diffs against the base branch checked out in base/, on pull requests', () => {
    const base = steps.find((s) => s.uses?.startsWith('actions/checkout@') && s.with?.path === 'base');
    expect(base).toMatchObject({ if: "github.event_name == 'pull_request'", with: { ref: '${{ github.base_ref }}' } });
    const gate = steps.find((s) => /preflight-gate@/.test(s.uses ?? ''));
    expect(gate?.with).toMatchObject({
      prove: 'true',
      'diff-base': "${{ github.event_name == 'pull_request' && 'base/policies' || '' }}",
      'diff-fail-on': 'newly-allowed',
    });
  });

  it('keeps the JUnit report the action writes (its junit-file output)', () => {
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload).toMatchObject({ if: 'always()', with: { path: '${{ steps.preflight-gate.outputs.junit-file }}' } });
    expect(steps.find((s) => /preflight-gate@/.test(s.uses ?? ''))?.id).toBe('preflight-gate');
  });
});

describe('the test suite example of docs/policy-workflow.md', () => {
  // As docs/policy-workflow.md says: saved next to the starter policies (with their testdata/run.json), it runs as is.
  const inPolicies = () => {
    const { dir, cleanup } = tempDir({ 'example.test.yaml': blockAfter('## Policy test suites', 'yaml') });
    cpSync(join(ROOT, 'policies'), dir, { recursive: true });
    return { dir, cleanup };
  };

  it('is a valid suite, whose payload file is there', () => {
    const { dir, cleanup } = inPolicies();
    try {
      const suite = loadSuites(dir).find((s) => s.file.endsWith('example.test.yaml'));
      expect(suite?.problems).toEqual([]);
      expect(suite?.doc?.cases.map((c) => c.name)).toEqual([
        'a CPU attack in payments-prod is denied',
        'a run in production is allowed and records its decision',
      ]);
    } finally {
      cleanup();
    }
  });

  it('passes every case against the starter policies, as `preflight-gate test policies` runs it', () => {
    const { dir, cleanup } = inPolicies();
    try {
      const run = testPolicyDir(dir, {});
      const example = run.suites.find((s) => s.file.endsWith('example.test.yaml'));
      expect(example?.cases.map((c) => [c.name, c.failures])).toEqual([
        ['a CPU attack in payments-prod is denied', []],
        ['a run in production is allowed and records its decision', []],
      ]);
      expect(run.ok).toBe(true);
    } finally {
      cleanup();
    }
  });

  it('alone, without its payload file, is refused with the path it misses', () => {
    const { dir, cleanup } = tempDir({ 'example.test.yaml': blockAfter('## Policy test suites', 'yaml') });
    try {
      const [suite] = loadSuites(dir);
      expect(suite.problems.map((p) => `${p.line}:${p.col} ${p.path}: ${p.message}`)).toEqual([
        `5:16 defaults.payloadFile: the defaults (every case reads it) give payloadFile testdata/run.json, but it does not exist (looked for ${join(dir, 'testdata', 'run.json')})`,
      ]);
    } finally {
      cleanup();
    }
  });
});
