import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/server-process';

/** buildah as scripts/image/ sets it up (vfs storage in the per-machine cache, chroot isolation). */
export const BUILDAH = join(ROOT, 'scripts', 'image', 'buildah.sh');

export function buildah(args: string[]): string {
  const run = spawnSync(BUILDAH, args, { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`buildah ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  return run.stdout.trim();
}

/** The OCI config of an image: what a container runtime starts. */
export interface ImageConfig {
  User?: string;
  Env?: string[];
  Cmd?: string[];
  Entrypoint?: string[];
  WorkingDir?: string;
  Labels?: Record<string, string>;
}

export function imageConfig(image: string): ImageConfig {
  const inspected = JSON.parse(buildah(['inspect', '--type', 'image', image])) as { OCIv1: { config: ImageConfig } };
  return inspected.OCIv1.config;
}

/** Every process below `pid` (children, grandchildren, ...), from /proc. */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* the process ended while we read: not ours to report */
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parents)
      if (parent === p) {
        out.push(child);
        walk(child);
      }
  };
  walk(pid);
  return out;
}

/** Real, effective, saved and filesystem uid of a process (the `Uid:` line of /proc/PID/status). */
export function uidsOf(pid: number): number[] {
  const line =
    readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Uid:')) ?? '';
  return line.split(/\s+/).slice(1).map(Number);
}

export function commandOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}
