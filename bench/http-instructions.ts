import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generatePolicySet } from '../test/helpers/policy-sets/generate-policies';
import { usableRuleKinds } from '../test/helpers/policy-sets/usable-rule-kinds';
import { freePort } from '../test/helpers/server-process';
import { SECRET } from './http-stage';
import { repoRoot } from './paths';
import { payloadVariants } from './payload-variants';

/**
 * Instructions per answer of POST /preflight, counted by valgrind's callgrind on the server
 * process, which the machine's load does not move (docs/performance.md, "Compare two builds"):
 *
 *   node .bench/build/bench/http-instructions.js [floor|bundled|<n>] [requests] [dist dir] [--warmup <n>] [--keep <file>]
 *
 * The server (`<dist>/main.js`, default this checkout's; `floor` the floor of the HTTP stage) runs
 * under callgrind with `--single-threaded`; the bench payloads are sent round-robin from 10
 * keep-alive connections: a warm-up (3 x `requests` unless `--warmup` says), then the counters are zeroed, `requests` more
 * are sent and the counters dumped. Prints instructions per answer and the statuses seen; `--keep`
 * copies the dump (for `callgrind_annotate --inclusive=yes`).
 */
const CONNECTIONS = 10;

function send(port: number, agent: Agent, body: Buffer, signature: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/preflight',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'x-sb-signature': signature, 'content-length': body.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

async function load(port: number, count: number, statuses: Map<number, number>): Promise<void> {
  const variants = payloadVariants(SECRET);
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const v = variants[next++ % variants.length];
      // A kept-alive connection the server has just closed: sent again on a new one.
      const status = await send(port, agent, v.body, v.signature).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ECONNRESET') throw err;
        return send(port, agent, v.body, v.signature);
      });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  agent.destroy();
}

async function waitReady(port: number, deadline: number): Promise<void> {
  for (;;) {
    try {
      const variants = payloadVariants(SECRET);
      const agent = new Agent();
      await send(port, agent, variants[0].body, variants[0].signature);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error('the server did not answer within its deadline');
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** V8's optimising compilers (TurboFan, Maglev, Turboshaft), by the names of their functions. */
const COMPILER = /v8::internal::(compiler|maglev|turboshaft)::|Maglev/;

/**
 * The self cost of the compilers' functions in a callgrind dump: code still being optimised (it
 * goes on, a few functions every thousand requests, long after a warm-up) is the JIT's, not an
 * answer's, and it moves from one build to the next more than a change of a few percent does.
 */
function compilerInstructions(file: string): number {
  const names = new Map<string, string>();
  let inCompiler = false;
  let afterCall = false;
  let sum = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    // A function is named once, where it first appears (as fn= or as the callee, cfn=), then by its number.
    const fn = /^(c?)fn=\((\d+)\)(?: (.*))?$/.exec(line);
    if (fn) {
      if (fn[3] !== undefined) names.set(fn[2], fn[3]);
      if (fn[1] === '') inCompiler = COMPILER.test(names.get(fn[2]) ?? '');
      continue;
    }
    if (line.startsWith('calls=')) {
      afterCall = true;
      continue;
    }
    if (/^([+-]?\d|\*)/.test(line)) {
      // The line after calls= is the inclusive cost of that call, not the function's own.
      if (!afterCall && inCompiler) sum += Number(line.split(' ')[1] ?? 0);
      afterCall = false;
    }
  }
  return sum;
}

const totalInstructions = (file: string): number => {
  const line = readFileSync(file, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('summary:') || l.startsWith('totals:'));
  if (!line) throw new Error(`${file} has no totals`);
  return Number(line.split(/\s+/)[1]);
};

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const keep = args.indexOf('--keep');
  const keepAs = keep === -1 ? undefined : args.splice(keep, 2)[1];
  const warm = args.indexOf('--warmup');
  const warmupArg = warm === -1 ? undefined : args.splice(warm, 2)[1];
  const [set = 'bundled', requestsArg = '2000', distArg] = args;
  const requests = Number(requestsArg);
  // Enough for the JIT to have compiled the request path: its compilations are not an answer's cost.
  const warmup = Number(warmupArg ?? requests * 3);
  const root = repoRoot();
  const dist = resolve(distArg ?? join(root, 'dist'));
  const work = mkdtempSync(join(tmpdir(), 'preflight-instructions-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    // callgrind_control finds the process by its user and host: the same environment for both.
    ...(process.env.USER ? { USER: process.env.USER } : {}),
    HOST: '127.0.0.1',
    WEBHOOK_SECRET: SECRET,
    LOG_LEVEL: 'info',
    POLICY_WATCH: 'false',
  };
  let script = join(dist, 'main.js');
  if (set === 'floor') script = join(__dirname, 'floor-server.js');
  else if (set === 'bundled') env.POLICY_DIR = join(root, 'policies');
  else {
    const dir = join(work, 'policies');
    mkdirSync(dir);
    for (const f of generatePolicySet(Number(set), usableRuleKinds().usable)) writeFileSync(join(dir, f.file), f.text);
    env.POLICY_DIR = dir;
  }
  const port = await freePort();
  const out = join(work, 'callgrind.out');
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${out}`,
      '--dump-instr=no',
      process.execPath,
      '--single-threaded',
      script,
    ],
    { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  try {
    await waitReady(port, Date.now() + 600_000);
    const statuses = new Map<number, number>();
    await load(port, warmup, new Map());
    const control = (option: string) =>
      execFileSync('callgrind_control', [option, String(child.pid)], {
        env: { ...process.env, ...env },
        stdio: 'ignore',
      });
    control('-z');
    await load(port, requests, statuses);
    control('-d');
    const dumps = readdirSync(work).filter((f) => f.startsWith('callgrind.out.'));
    if (dumps.length !== 1) throw new Error(`expected one dump, found ${dumps.join(', ')}`);
    const instructions = totalInstructions(join(work, dumps[0]));
    if (keepAs) copyFileSync(join(work, dumps[0]), keepAs);
    const compiling = compilerInstructions(join(work, dumps[0]));
    const seen = [...statuses].map(([s, n]) => `${s}: ${n}`).join(', ');
    process.stdout.write(
      `${set} ${script}: ${Math.round((instructions - compiling) / requests)} instructions an answer without the JIT compilers' (${Math.round(instructions / requests)} with them) over ${requests} (${seen})\n`,
    );
  } catch (e) {
    process.stderr.write(err.slice(-4000));
    throw e;
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(2);
});
