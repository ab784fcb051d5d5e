import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ROOT } from '../helpers/server-process';
import { helmBinary } from './helm-binary';

export const CHART = join(ROOT, 'helm');
export const ALL_OPTIONS = join(CHART, 'ci', 'all-options-values.yaml');

/** A rendered Kubernetes object, loosely typed: the tests read it by path. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  [key: string]: unknown;
}

export interface HelmRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

// Helm's own config, cache and data dirs in a temp dir: the tests never touch the user's.
const HELM_HOME = mkdtempSync(join(tmpdir(), 'helm-home-'));
afterAll(() => rmSync(HELM_HOME, { recursive: true, force: true }));

export function helm(args: string[], cwd = ROOT): HelmRun {
  const env = {
    PATH: process.env.PATH,
    HOME: HELM_HOME,
    HELM_CONFIG_HOME: join(HELM_HOME, 'config'),
    HELM_CACHE_HOME: join(HELM_HOME, 'cache'),
    HELM_DATA_HOME: join(HELM_HOME, 'data'),
  };
  const run = spawnSync(helmBinary(), args, { cwd, env, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** `--set` pairs (helm infers the type: "true", "20") and `-f` files as helm arguments. */
export function valueArgs(set: Record<string, string> = {}, files: string[] = []): string[] {
  return [...files.flatMap((f) => ['-f', f]), ...Object.entries(set).flatMap(([k, v]) => ['--set', `${k}=${v}`])];
}

/** `helm template` of the chart; throws with helm's message when rendering fails. */
export function render(set: Record<string, string> = {}, files: string[] = [], chart = CHART): Manifest[] {
  const run = helm(['template', 'pg', chart, '--namespace', 'chaos', ...valueArgs(set, files)]);
  if (run.status !== 0) throw new Error(`helm template failed (${run.status}): ${run.stderr}`);
  return parseAllDocuments(run.stdout)
    .map((d) => d.toJS() as Manifest | null)
    .filter((m): m is Manifest => m !== null);
}

/** `helm template` of values the chart must refuse: helm's error output. Throws when the chart renders them. */
export function renderError(set: Record<string, string> = {}, files: string[] = []): string {
  const run = helm(['template', 'pg', CHART, ...valueArgs(set, files)]);
  if (run.status === 0)
    throw new Error(`helm template rendered values it should refuse: ${JSON.stringify(set)} ${files}`);
  return run.stderr;
}

export function find(manifests: Manifest[], kind: string, name?: string): Manifest {
  const found = manifests.find((m) => m.kind === kind && (name === undefined || m.metadata.name === name));
  if (!found)
    throw new Error(
      `no ${kind}${name ? ` ${name}` : ''} in ${manifests.map((m) => `${m.kind}/${m.metadata.name}`).join(', ')}`,
    );
  return found;
}
