import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { preflightWith } from '../helpers/fixtures';
import { freePort, ROOT, startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';
import { startOciRegistry } from '../release/oci-registry';
import { runAsync } from '../helpers/run-async';
import { signedPost } from '../helpers/signed-post';
import { BUILDAH, buildah, commandOf, descendants, imageConfig, uidsOf, type ImageConfig } from './buildah';

/**
 * The Dockerfile, built for real with buildah (scripts/image/build.sh: on the pinned base, or where
 * no container registry is reachable on a local stand-in of the same name), then the image's own
 * entrypoint started with `buildah run` and asked a signed preflight, as a cluster would.
 */
const TAG = `localhost/preflight-gate:test-${process.pid}`;
const SECRET = 'image-test-secret';
const BUILD_TIMEOUT_MS = 20 * 60_000;

let config: ImageConfig;
let container = '';
let rootfs = '';
let port = 0;
let service: ChildProcess | undefined;
let output = '';
let local: ServerProcess | undefined;

/** Status and message of a signed preflight in `environment`; the decision id (new per request) masked. */
async function post(
  url: string,
  secret: string,
  environment = 'staging',
): Promise<{ status: number; message: string }> {
  const body = preflightWith((p) => {
    p.execution.environment = environment;
  });
  const res = await signedPost(`${url}/preflight`, body, secret);
  const { message } = (await res.json()) as { message: string };
  return { status: res.status, message: message.replace(/decision [0-9a-f-]{36}/, 'decision <id>') };
}

/** The node process the image's entrypoint became, below `buildah run`. */
function serviceProcess(): number {
  const pid = descendants(service?.pid ?? -1).find(
    (p) => commandOf(p).slice(-1)[0] === config.Cmd?.slice(-1)[0] && commandOf(p)[0].endsWith('node'),
  );
  if (pid === undefined) throw new Error(`no node process below buildah run (pid ${service?.pid})`);
  return pid;
}

beforeAll(async () => {
  const started = Date.now();
  const build = await runAsync('bash', [join(ROOT, 'scripts', 'image', 'build.sh'), TAG]);
  if (build.status !== 0)
    throw new Error(`scripts/image/build.sh failed (${build.status}):\n${build.stderr.slice(-4000)}`);
  process.stderr.write(
    `image test: base + build ${Math.round((Date.now() - started) / 1000)} s (${build.stderr
      .split('\n')
      .filter((l) => /^(debootstrap|assembled|built)/.test(l))
      .join('; ')})\n`,
  );
  config = imageConfig(TAG);
  container = buildah(['from', '--pull=false', TAG]);
  rootfs = buildah(['mount', container]);
  port = await freePort();
  const env = { PORT: String(port), HOST: '127.0.0.1', WEBHOOK_SECRET: SECRET, POLICY_WATCH: 'false' };
  const entry = [...(config.Entrypoint ?? []), ...(config.Cmd ?? [])];
  service = spawn(
    BUILDAH,
    ['run', ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]), container, '--', ...entry],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  service.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  service.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  await waitFor(
    async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200,
    `the image's service to be ready:\n${output}`,
    60_000,
  );
  local = await startServerProcess({
    POLICY_DIR: join(ROOT, 'policies'),
    WEBHOOK_SECRET: SECRET,
    POLICY_WATCH: 'false',
  });
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await local?.stop();
  if (service && service.exitCode === null) {
    service.kill('SIGKILL');
    await new Promise((r) => service?.once('close', r));
  }
  if (container) spawnSync(BUILDAH, ['rm', container]);
  spawnSync(BUILDAH, ['rmi', TAG]);
}, 60_000);

describe('the image built from the Dockerfile', () => {
  it('carries the OCI labels: version from package.json, revision of this checkout, source', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() || 'unknown';
    expect(config.Labels).toMatchObject({
      'org.opencontainers.image.version': pkg.version,
      'org.opencontainers.image.revision': head,
      'org.opencontainers.image.source': expect.stringMatching(/^https:\/\//),
    });
  });

  it('runs the Node LTS the Dockerfile names, with production dependencies only', () => {
    const major = /node:(\d+)-/.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1];
    // chroot lives in /usr/sbin, which a non-login shell's PATH may lack (CI stopped here once).
    const PATH = `${process.env.PATH}:/usr/local/sbin:/usr/sbin:/sbin`;
    const run = spawnSync('chroot', [rootfs, 'node', '--version'], { encoding: 'utf8', env: { ...process.env, PATH } });
    if (run.error) throw run.error;
    const version = run.stdout.trim();
    expect(version).toMatch(new RegExp(`^v${major}\\.`));
    const modules = readdirSync(join(rootfs, 'app', 'node_modules'));
    expect(modules).toEqual(expect.arrayContaining(['express', 'prom-client', 'winston']));
    for (const dev of ['typescript', 'jest', '@aws-cdk', '@swc/core'])
      expect([dev, modules.includes(dev)]).toEqual([dev, false]);
    expect(existsSync(join(rootfs, 'app', 'dist', 'main.js'))).toBe(true);
    expect(existsSync(join(rootfs, 'app', 'src'))).toBe(false);
  });

  it.each([
    ['staging', 200],
    ['payments-prod', 403],
  ])(
    'answers a signed preflight in %s (%d) exactly as the service from this checkout does',
    async (environment, status) => {
      const fromImage = await post(`http://127.0.0.1:${port}`, SECRET, environment);
      expect(fromImage).toEqual(await post(local?.url ?? '', SECRET, environment));
      expect(fromImage.status).toBe(status);
    },
  );

  it('exports preflight_gate_build_info with the revision of the labels and the Node of the image', async () => {
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const labels = config.Labels ?? {};
    expect(metrics).toMatch(
      new RegExp(
        `preflight_gate_build_info\\{version="${labels['org.opencontainers.image.version']}",revision="${labels['org.opencontainers.image.revision']}",node_version="v\\d+\\.\\d+\\.\\d+"\\} 1`,
      ),
    );
  });

  it('says in /readyz that the starter policies built into the image are served', async () => {
    expect(await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()).toMatchObject({
      status: 'ready',
      starterPolicies: true,
    });
  });

  it('refuses a payload signed with another secret', async () => {
    expect((await post(`http://127.0.0.1:${port}`, 'not-the-secret')).status).toBe(401);
  });

  it("runs the service as the image's non-root user (every uid of the process)", () => {
    const [uid] = (config.User ?? '').split(':').map(Number);
    expect(uid).toBeGreaterThan(0);
    expect(uidsOf(serviceProcess())).toEqual([uid, uid, uid, uid]);
  });

  it('stops cleanly on SIGTERM, as Kubernetes stops it', async () => {
    process.kill(serviceProcess(), 'SIGTERM');
    const code = await new Promise<number | null>((resolve) => service?.once('close', resolve));
    expect([code, output]).toEqual([0, expect.stringContaining('"listening"')]);
  }, 40_000);

  // The release's image step rehearsed with real parts (the image is built once, above): pushed to
  // an OCI registry (docker-registry, as ghcr.io in .github/workflows/release.yml), pulled back into
  // an empty image storage as a cluster node would, and run from there.
  it('is pushed to an OCI registry at package.json version, pulled into an empty storage and answers a signed preflight', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const registry = await startOciRegistry();
    const storage = mkdtempSync(join(tmpdir(), 'pg-image-pull-'));
    const fresh = { ...process.env, PREFLIGHT_GATE_IMAGE_CACHE: storage };
    const ok = async (args: string[], env = process.env) => {
      const run = await runAsync(BUILDAH, args, { env });
      if (run.status !== 0)
        throw new Error(`buildah ${args.join(' ')} failed (${run.status}): ${run.stderr}\n${registry.log()}`);
      return run.stdout.trim();
    };
    let pulled: ChildProcess | undefined;
    try {
      const ref = `${registry.host}/preflight-gate:${pkg.version}`;
      await ok(['push', '--tls-verify=false', '--quiet', TAG, `docker://${ref}`]);
      expect(await (await fetch(`${registry.url}/v2/preflight-gate/tags/list`)).json()).toEqual({
        name: 'preflight-gate',
        tags: [pkg.version],
      });

      await ok(['pull', '--tls-verify=false', '--quiet', `docker://${ref}`], fresh);
      const labels = JSON.parse(await ok(['inspect', '--type', 'image', ref], fresh)) as {
        OCIv1: { config: ImageConfig };
      };
      expect(labels.OCIv1.config.Labels?.['org.opencontainers.image.version']).toBe(pkg.version);
      const ctr = await ok(['from', '--pull=false', ref], fresh);
      const pulledPort = await freePort();
      const env = { PORT: String(pulledPort), HOST: '127.0.0.1', WEBHOOK_SECRET: SECRET, POLICY_WATCH: 'false' };
      let log = '';
      pulled = spawn(
        BUILDAH,
        ['run', ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]), ctr, '--', ...(config.Cmd ?? [])],
        { cwd: ROOT, env: fresh, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      pulled.stdout?.on('data', (d: Buffer) => {
        log += d.toString();
      });
      pulled.stderr?.on('data', (d: Buffer) => {
        log += d.toString();
      });
      await waitFor(
        async () => (await fetch(`http://127.0.0.1:${pulledPort}/readyz`)).status === 200,
        `the pulled image's service to be ready:\n${log}`,
        60_000,
      );
      expect(await post(`http://127.0.0.1:${pulledPort}`, SECRET, 'payments-prod')).toEqual(
        await post(local?.url ?? '', SECRET, 'payments-prod'),
      );
      expect((await post(`http://127.0.0.1:${pulledPort}`, SECRET, 'staging')).status).toBe(200);
    } finally {
      const running = pulled;
      if (running && running.exitCode === null) {
        const pids = descendants(running.pid ?? -1);
        for (const pid of pids) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            /* already gone */
          }
        }
        running.kill('SIGKILL');
        await new Promise((r) => running.once('close', r));
      }
      await runAsync(BUILDAH, ['rm', '--all'], { env: fresh });
      await runAsync(BUILDAH, ['rmi', '--all', '--force'], { env: fresh });
      rmSync(storage, { recursive: true, force: true });
      await registry.stop();
    }
  }, 180_000);
});
