import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { revisionOf } from '../../src/policy/loading/load-bundle';
import { getJson, getText, post } from './post';

/** The revision the service will report for these files (relative path -> text). */
export const revisionFor = (files: Record<string, string>) =>
  revisionOf(Object.entries(files).map(([key, text]) => ({ file: key, key, text })));

export const blockPolicy = (name: string, env: string) => `kind: Policy
name: ${name}
rules:
  - environments:
      blocked: [${env}]
message: "{{reason}}"
`;

export const preflightIn = (environment: string) =>
  JSON.stringify({
    event: 'experiment.execution.preflight',
    execution: { id: 1, experimentKey: 'SHOP-1', teamKey: 'SHOP', environment, steps: [] },
  });

export interface ReadyBody {
  status: string;
  revision?: string;
  policies: number;
  lastLoad?: {
    ok: boolean;
    trigger?: string;
    at?: string;
    unchanged?: true;
    revision?: string;
    rejectedRevision?: string;
    problems: string[];
  };
  policyFiles?: { checkedAt?: string };
}

export const readyz = async (url: string) => (await getJson<ReadyBody>(`${url}/readyz`)).body;

/** One sample's value from the Prometheus text, or undefined when the series does not exist. */
export async function metric(url: string, series: string): Promise<number | undefined> {
  const text = await getText(`${url}/metrics`);
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

export interface Answer {
  status: number;
  revision?: string;
  message: string;
}

/** Keeps `workers` requests in flight until stopped; records every answer and every failure. */
export function keepPosting(url: string, body: string, workers = 4) {
  const answers: Answer[] = [];
  const failures: string[] = [];
  let stopped = false;
  const loops = Array.from({ length: workers }, async () => {
    while (!stopped) {
      try {
        const res = await post(`${url}/preflight`, body);
        const revision = res.headers['x-preflight-policy-revision'];
        answers.push({
          status: res.status,
          revision: typeof revision === 'string' ? revision : undefined,
          message: (JSON.parse(res.body) as { message: string }).message,
        });
      } catch (err) {
        failures.push(String(err));
      }
    }
  });
  return {
    answers,
    failures,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** Writes every file of a set; the files of one set are written back to back (one burst). */
export function writeSet(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
}

/**
 * A directory laid out like a Kubernetes ConfigMap volume: `..<timestamp>/` holds the files,
 * `..data` links to it, and every top-level file links through `..data`. `swap` publishes a new
 * version the way the kubelet does: a new timestamp dir, a `..data_tmp` link, one rename().
 */
export function configMapDir(root: string, files: Record<string, string>) {
  let version = 0;
  let current = '';
  const publish = (next: Record<string, string>) => {
    version++;
    const stamp = `..2026_11_22_02_00_0${version}.${100000 + version}`;
    mkdirSync(join(root, stamp));
    for (const [file, text] of Object.entries(next)) writeFileSync(join(root, stamp, file), text);
    symlinkSync(stamp, join(root, '..data_tmp'));
    renameSync(join(root, '..data_tmp'), join(root, '..data'));
    if (current) rmSync(join(root, current), { recursive: true, force: true });
    current = stamp;
  };
  mkdirSync(root, { recursive: true });
  publish(files);
  for (const file of Object.keys(files)) symlinkSync(join('..data', file), join(root, file));
  return { swap: publish };
}
