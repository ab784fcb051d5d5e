import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A memory cgroup of its own with a limit, as a Kubernetes memory limit makes one for a container:
 * the kernel charges it every page its processes use (heap, stacks, the page cache they fill), holds
 * it at the limit by reclaiming, and OOM-kills inside it when it cannot. The usage it reports is the
 * figure the kubelet reads, not RSS (VmHWM), which also counts shared file pages charged elsewhere
 * and misses the page cache a process fills.
 */
export interface MemoryCgroup {
  version: 'v1' | 'v2';
  dir: string;
  limitBytes: number;
  /** `command args` as a process that joins this cgroup before it execs: everything it allocates is charged here. */
  wrap(command: string, args: readonly string[]): { command: string; args: string[] };
  /** The highest usage since the cgroup was made (v2 memory.peak, v1 memory.max_usage_in_bytes), or the highest sampled. */
  peakBytes(): number;
  currentBytes(): number;
  /** Processes the kernel's OOM killer ended inside it (v2 memory.events, v1 memory.oom_control oom_kill). */
  oomKills(): number;
  /** Removes the cgroup (its processes must have ended). */
  remove(): void;
}

const V2_ROOT = '/sys/fs/cgroup';
const V1_ROOT = '/sys/fs/cgroup/memory';

const read = (file: string) => readFileSync(file, 'utf8').trim();

/** `key value` lines (memory.events, memory.oom_control) -> the value of `key`, 0 when absent. */
function field(file: string, key: string): number {
  const line = read(file)
    .split('\n')
    .find((l) => l.startsWith(`${key} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

/** This process's own cgroup in a hierarchy: new cgroups go under it (a container may write only there). */
function ownCgroup(match: (controllers: string) => boolean): string | undefined {
  const line = read('/proc/self/cgroup')
    .split('\n')
    .map((l) => l.split(':'))
    .find(([, controllers]) => match(controllers));
  return line?.slice(2).join(':');
}

/** Where a new memory cgroup can be made: cgroup v2 with the memory controller, else cgroup v1's memory hierarchy. */
function parent(): { version: 'v1' | 'v2'; dir: string } | string {
  const v2Controllers = join(V2_ROOT, 'cgroup.controllers');
  if (existsSync(v2Controllers) && read(v2Controllers).split(' ').includes('memory')) {
    const own = ownCgroup((c) => c === '') ?? '/';
    return { version: 'v2', dir: join(V2_ROOT, own) };
  }
  if (existsSync(join(V1_ROOT, 'memory.limit_in_bytes'))) {
    const own = ownCgroup((c) => c.split(',').includes('memory')) ?? '/';
    const dir = join(V1_ROOT, own);
    return { version: 'v1', dir: existsSync(dir) ? dir : V1_ROOT };
  }
  return 'no cgroup v2 with the memory controller at /sys/fs/cgroup and no cgroup v1 memory hierarchy at /sys/fs/cgroup/memory';
}

/**
 * Makes a memory cgroup named `name` (unique to the caller) limited to `limitBytes`, or says why it
 * cannot here (not Linux, no memory controller, the cgroup fs not writable: not root, or a container
 * without a delegated cgroup). The caller removes it.
 */
export function memoryCgroup(name: string, limitBytes: number): MemoryCgroup | { skipped: string } {
  if (process.platform !== 'linux') return { skipped: `cgroups are Linux only (this is ${process.platform})` };
  const where = parent();
  if (typeof where === 'string') return { skipped: where };
  const { version } = where;
  const dir = join(where.dir, name);
  const file = (v1: string, v2: string) => join(dir, version === 'v1' ? v1 : v2);
  try {
    // v2 gives a child the memory controller only when its parent enables it for its children.
    if (version === 'v2' && !read(join(where.dir, 'cgroup.subtree_control')).split(' ').includes('memory'))
      writeFileSync(join(where.dir, 'cgroup.subtree_control'), '+memory');
    mkdirSync(dir);
    writeFileSync(file('memory.limit_in_bytes', 'memory.max'), String(limitBytes));
    // Without swap as in a pod (the kubelet runs without it unless told): the limit is the memory.
    if (version === 'v2' && existsSync(join(dir, 'memory.swap.max'))) writeFileSync(join(dir, 'memory.swap.max'), '0');
  } catch (err) {
    if (existsSync(dir)) rmdirSync(dir);
    return { skipped: `cannot make a memory cgroup at ${dir} (${(err as NodeJS.ErrnoException).code ?? String(err)})` };
  }
  const procs = join(dir, 'cgroup.procs');
  const peakFile = version === 'v1' ? join(dir, 'memory.max_usage_in_bytes') : join(dir, 'memory.peak');
  const currentBytes = () => Number(read(file('memory.usage_in_bytes', 'memory.current')));
  // Without memory.peak (v2 before Linux 5.19), the highest of samples every 10 ms: a gap can miss a spike.
  let sampled = 0;
  const sampler = existsSync(peakFile)
    ? undefined
    : setInterval(() => {
        sampled = Math.max(sampled, currentBytes());
      }, 10).unref();
  return {
    version,
    dir,
    limitBytes,
    wrap: (command, args) => ({
      command: '/bin/sh',
      // $0 is the cgroup's procs file, "$@" the command: the shell joins the cgroup, then becomes the command.
      args: ['-c', 'echo $$ > "$0" && exec "$@"', procs, command, ...args],
    }),
    peakBytes: () => (sampler ? Math.max(sampled, currentBytes()) : Number(read(peakFile))),
    currentBytes,
    oomKills: () =>
      version === 'v1'
        ? field(join(dir, 'memory.oom_control'), 'oom_kill')
        : field(join(dir, 'memory.events'), 'oom_kill'),
    remove: () => {
      clearInterval(sampler);
      rmdirSync(dir);
    },
  };
}
