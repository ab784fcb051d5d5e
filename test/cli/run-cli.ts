import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from '../helpers/server-process';

export const CLI = join(ROOT, 'bin', 'preflight-gate.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (through bin/, as npx does) and returns its exit code and output. */
export function runCli(
  args: string[],
  opts: { input?: string | Buffer; env?: Record<string, string>; cwd?: string } = {},
): CliResult {
  const res = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? ROOT,
    input: opts.input ?? '',
    env: { PATH: process.env.PATH, ...opts.env },
    encoding: 'utf8',
    timeout: 20000,
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** Every directory tempDir made in this test file: removed after the file's tests, cleaned up early or not. */
const madeInFile: string[] = [];
afterAll(() => madeInFile.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A temporary directory holding `files` (path -> text); removed by the returned cleanup, or after the test file. */
export function tempDir(files: Record<string, string>): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-cli-'));
  madeInFile.push(dir);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Temporary directories for one describe block, all removed in its afterAll. */
export function tempDirs(): (files: Record<string, string>) => string {
  const made: Array<{ cleanup(): void }> = [];
  afterAll(() => made.forEach((d) => d.cleanup()));
  return (files) => {
    const d = tempDir(files);
    made.push(d);
    return d.dir;
  };
}

export const BLOCK_PROD = `kind: Policy
name: block-prod
rules:
  - environments:
      blocked: [prod]
message: "{{reason}}"
`;

export const WARN_BIG = `kind: Policy
name: warn-big-radius
mode: warn
match:
  environments: [staging]
rules:
  - environments:
      blocked: [staging]
message: "staging runs are watched: {{reason}}"
`;

export const TAG_RUNS = `kind: Policy
name: tag-runs
modifications:
  - type: set_property_value
    propertyKey: preflight.decision
    value: "{{decisionId}}"
`;

/** A small valid preflight payload in the given environment. */
export function runIn(environment: string): Record<string, unknown> {
  return {
    event: 'experiment.execution.preflight',
    execution: {
      id: 7,
      experimentKey: 'SHOP-1',
      teamKey: 'SHOP',
      environment,
      steps: [{ actionId: 'com.steadybit.extension_container.stress_cpu', actionKind: 'ATTACK' }],
    },
  };
}
