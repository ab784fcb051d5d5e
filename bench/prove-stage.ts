import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GAMEDAY_EXCEPTION, perDeploymentPolicy } from '../test/helpers/policy-sets/everyday-edits';
import { generatePolicySet } from '../test/helpers/policy-sets/generate-policies';

/** One `preflight-gate diff` or `prove` measured as a user runs it: the CLI as a process of this runtime. */
export interface ProveRunFigures {
  name: string;
  /** Wall time of the process, node's start included: the median of the repetitions, s. */
  seconds: number;
  /** Each repetition's wall time, s. */
  rounds: number[];
  /** CPU time of the process (user + system, from /proc/self/stat's waited-for children), the median, s; NaN without /proc. */
  cpuSeconds: number;
  exitCode: number;
  /** diff: witnesses by kind, and what it could not tell; prove: each property's answer. */
  answers: Record<string, number>;
  unknown: string[];
}

/** An everyday edit of the bundled set (docs/decisions/0044): the diff, and the class it must find. */
export interface EditRunFigures extends ProveRunFigures {
  /** The kind of witness the edit must give (and none of the other kind). */
  expected: 'newly-allowed' | 'newly-denied';
}

export interface ProveFigures {
  bundledDiff: ProveRunFigures;
  /** An alias id added, an exception added, a perGroup cap raised: each against the bundled set. */
  everydayEdits: EditRunFigures[];
  bundledProve: ProveRunFigures;
  generatedDiff: ProveRunFigures;
  generatedPolicies: number;
  cores: number;
}

/** The children's CPU time this process has waited for, s (Linux: fields 16 and 17 of /proc/self/stat, in ticks of 1/100 s). */
function childrenCpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    // After "pid (comm) ", field 3 (state) is index 0: cutime is field 16, cstime 17.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `node dist/cli/main.js <args> --format json`, `repeat` times: wall and CPU time, and the last run's answers. */
function timeCli(
  name: string,
  cli: string,
  args: string[],
  repeat: number,
  answersOf: (json: Record<string, unknown>) => { answers: Record<string, number>; unknown: string[] },
): ProveRunFigures {
  const walls: number[] = [];
  const cpus: number[] = [];
  let last: { status: number | null; stdout: string; stderr: string } = { status: null, stdout: '', stderr: '' };
  for (let i = 0; i < repeat; i++) {
    const cpu = childrenCpuSeconds();
    const started = process.hrtime.bigint();
    last = spawnSync(process.execPath, [cli, ...args, '--format', 'json'], {
      encoding: 'utf8',
      maxBuffer: 256 * 2 ** 20,
      env: { PATH: process.env.PATH, NODE_ENV: 'production' },
    });
    walls.push(Number(process.hrtime.bigint() - started) / 1e9);
    cpus.push(childrenCpuSeconds() - cpu);
  }
  if (last.status !== 0 && last.status !== 1)
    throw new Error(`bench: preflight-gate ${args.join(' ')} exited ${last.status}: ${last.stderr.slice(0, 500)}`);
  return {
    name,
    seconds: median(walls),
    rounds: walls,
    cpuSeconds: median(cpus),
    exitCode: last.status ?? -1,
    ...answersOf(JSON.parse(last.stdout) as Record<string, unknown>),
  };
}

const diffAnswers = (json: Record<string, unknown>) => {
  const answers: Record<string, number> = { 'newly-allowed': 0, 'newly-denied': 0 };
  for (const w of json.witnesses as Array<{ kind: string }>) answers[w.kind] = (answers[w.kind] ?? 0) + 1;
  return { answers, unknown: json.unknown as string[] };
};
const proveAnswers = (json: Record<string, unknown>) => {
  const props = json.properties as Array<{ status: string; property: string; reason?: string }>;
  const answers: Record<string, number> = { proven: 0, counterexample: 0, unknown: 0, total: props.length };
  for (const p of props) answers[p.status] = (answers[p.status] ?? 0) + 1;
  return { answers, unknown: props.filter((p) => p.reason).map((p) => `${p.property}: ${p.reason}`) };
};

/**
 * Edits a reviewer makes to the bundled set every day (docs/decisions/0044), as files written over
 * a copy of it on each side; test/prove/everyday-edits-known-answers.test.ts checks their answers.
 */
const EVERYDAY_EDITS: ReadonlyArray<{
  name: string;
  title: string;
  base: Record<string, string>;
  proposed: Record<string, string>;
  expected: EditRunFigures['expected'];
}> = [
  {
    name: 'alias',
    title: 'diff of the bundled set against an id added to an environment alias',
    base: {},
    proposed: {
      'environment-aliases.yaml': `kind: EnvironmentAliases
aliases:
  production: [4f1c2a9e-0000-4000-8000-000000000001, 4f1c2a9e-0000-4000-8000-000000000003]
  payments-prod: [4f1c2a9e-0000-4000-8000-000000000002]
`,
    },
    expected: 'newly-denied',
  },
  {
    name: 'exception',
    title: 'diff of the bundled set against an exception added to the namespace guard',
    base: {},
    proposed: {
      'guard-exception.yaml': GAMEDAY_EXCEPTION,
    },
    expected: 'newly-allowed',
  },
  {
    name: 'per-group',
    title: 'diff of the bundled set with a perGroup rule against its cap raised',
    base: { 'per-deployment.yaml': perDeploymentPolicy(2) },
    proposed: { 'per-deployment.yaml': perDeploymentPolicy(3) },
    expected: 'newly-allowed',
  },
];

/** A copy of `from` in `to` with one text of one file replaced (the one-rule change a pull request makes). */
function oneRuleChanged(from: string, to: string, file: string, find: RegExp, replace: string): string {
  mkdirSync(to, { recursive: true });
  cpSync(from, to, { recursive: true });
  const text = readFileSync(join(to, file), 'utf8');
  if (!find.test(text)) throw new Error(`bench: ${file} in ${from} has no ${find}`);
  writeFileSync(join(to, file), text.replace(find, replace));
  return to;
}

/**
 * `diff` and `prove` as a pull request's check runs them (docs/prove.md, issue 47 item 5): the
 * bundled set against itself with one rule changed (payments-prod no longer blocked: a class newly
 * allowed), `prove` of the bundled properties, and `policies` generated policies (the bench's
 * generator, every usable rule kind) against the same with one cap loosened. Each is the CLI in a
 * process of this runtime, `repeat` times; the figures are the medians.
 */
export function proveStage(
  root: string,
  work: string,
  opts: { policies: number; kinds: readonly string[]; repeat: number; cores: number },
): ProveFigures {
  const cli = join(root, 'dist', 'cli', 'main.js');
  if (!existsSync(cli)) throw new Error(`bench: ${cli} is missing (npm run build)`);
  const now = ['--now', '2026-03-02T10:00:00Z'];
  const bundled = join(root, 'policies');
  const loosened = oneRuleChanged(
    bundled,
    join(work, 'prove-bundled-changed'),
    'blocked-environments.yaml',
    /blocked: \[payments-prod\]/,
    'blocked: [payments-staging]',
  );
  const bundledDiff = timeCli(
    'diff of the bundled set against a one-rule change',
    cli,
    ['diff', bundled, loosened, ...now],
    opts.repeat,
    diffAnswers,
  );
  const everydayEdits = EVERYDAY_EDITS.map((edit): EditRunFigures => {
    const from = join(work, `prove-edit-${edit.name}-base`);
    const to = join(work, `prove-edit-${edit.name}`);
    for (const [dir, files] of [
      [from, edit.base],
      [to, edit.proposed],
    ] as const) {
      mkdirSync(dir, { recursive: true });
      cpSync(bundled, dir, { recursive: true });
      for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
    }
    const run = timeCli(edit.title, cli, ['diff', from, to, ...now], opts.repeat, diffAnswers);
    return { ...run, expected: edit.expected };
  });
  const bundledProve = timeCli(
    'prove of the bundled properties',
    cli,
    ['prove', bundled, ...now],
    opts.repeat,
    proveAnswers,
  );
  const generated = join(work, `prove-generated-${opts.policies}`);
  mkdirSync(generated, { recursive: true });
  const files = generatePolicySet(opts.policies, opts.kinds);
  for (const f of files) writeFileSync(join(generated, f.file), f.text);
  const capped = files.find((f) => /maxPercentage: \d+/.test(f.text));
  if (!capped) throw new Error('bench: the generated set has no maxPercentage cap to change');
  const changed = oneRuleChanged(
    generated,
    join(work, `prove-generated-${opts.policies}-changed`),
    capped.file,
    /maxPercentage: \d+/,
    'maxPercentage: 99',
  );
  const generatedDiff = timeCli(
    `diff of ${opts.policies} generated policies against ${opts.policies} with one rule changed`,
    cli,
    ['diff', generated, changed, ...now],
    opts.repeat,
    diffAnswers,
  );
  return {
    bundledDiff,
    everydayEdits,
    bundledProve,
    generatedDiff,
    generatedPolicies: opts.policies,
    cores: opts.cores,
  };
}
