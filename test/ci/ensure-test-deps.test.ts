import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/server-process';

/**
 * scripts/ensure-test-deps.sh on machines that lack what the tests start: it names each missing
 * program, its Debian package and what needs it, before installing anything, and stops with that
 * list where it cannot install (no apt-get).
 */
const SCRIPT = join(ROOT, 'scripts', 'ensure-test-deps.sh');
let bin: string;

/**
 * A PATH that has bash, `id` and the given programs of this machine, and nothing else; a fake
 * replaces the link to the real program. (Writing a fake over the link once wrote through it and
 * replaced the machine's own /usr/bin/id: a fake is never written where a link is.)
 */
function machine(programs: string[], fakes: Record<string, string> = {}): string {
  bin = mkdtempSync(join(tmpdir(), 'pg-deps-'));
  for (const p of ['bash', 'id', ...programs].filter((name) => !(name in fakes))) {
    const found = spawnSync('bash', ['-c', `command -v ${p}`], { encoding: 'utf8' }).stdout.trim();
    if (!found) throw new Error(`${p} is not on this machine`);
    symlinkSync(found, join(bin, p));
  }
  for (const [name, script] of Object.entries(fakes))
    writeFileSync(join(bin, name), `#!${join(bin, 'bash')}\n${script}\n`, { mode: 0o755, flag: 'wx' });
  return bin;
}
afterEach(() => rmSync(bin, { recursive: true, force: true }));

const run = (path: string, env: Record<string, string> = {}) =>
  spawnSync(join(path, 'bash'), [SCRIPT], {
    env: { PATH: path, PREFLIGHT_GATE_TEST_DEPS_SBIN: '', ...env },
    encoding: 'utf8',
  });

describe('scripts/ensure-test-deps.sh', () => {
  it('without apt-get: lists every missing program with its package and use, installs nothing, exits 1', () => {
    const result = run(machine(['redis-server', 'openssl', 'curl']));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^the tests need these programs, which are missing:\n {2}redis-cli \(Debian package redis-tools\): the Redis Cluster tests/,
    );
    for (const pkg of [
      'redis-tools',
      'prometheus',
      'prometheus-alertmanager',
      'buildah',
      'debootstrap',
      'docker-registry',
      'chromium',
    ])
      expect(result.stderr).toContain(`(Debian package ${pkg})`);
    expect(result.stderr).not.toContain('package redis-server)');
    expect(result.stderr).toContain('this machine has no apt-get to install them: nothing installed.');
    expect(result.stderr).toMatch(
      /apt-get install -y --no-install-recommends redis-tools prometheus prometheus-alertmanager buildah debootstrap docker-registry chromium\n$/,
    );
  });

  it('with apt-get (as root): says what it installs, then installs exactly that', () => {
    const path = machine(['redis-server', 'redis-cli', 'openssl', 'curl', 'cat'], {
      'apt-get': 'echo "apt-get $*" >>"$CALLS"; echo "apt-get $*" >&2',
      service: 'exit 0',
      id: 'echo 0',
    });
    const calls = join(path, 'calls');
    const result = run(path, { CALLS: calls });
    expect(result.status).toBe(0);
    const said = result.stderr.indexOf(
      'installing with apt-get: prometheus prometheus-alertmanager buildah debootstrap docker-registry chromium',
    );
    expect(said).toBeGreaterThan(result.stderr.indexOf('prometheus (Debian package prometheus)'));
    expect(said).toBeLessThan(result.stderr.indexOf('apt-get update'));
    expect(readFileSync(calls, 'utf8')).toBe(
      'apt-get update -qq\napt-get install -y -qq --no-install-recommends prometheus prometheus-alertmanager buildah debootstrap docker-registry chromium\n',
    );
  });

  it('PREFLIGHT_GATE_TEST_DEPS=check only checks, and nothing missing is a silent no-op', () => {
    const path = machine([], { 'apt-get': 'echo called >>"$CALLS"' });
    const check = run(path, { PREFLIGHT_GATE_TEST_DEPS: 'check', CALLS: join(path, 'calls') });
    expect([check.status, check.stderr]).toEqual([
      1,
      expect.stringContaining('nothing installed (PREFLIGHT_GATE_TEST_DEPS=check)'),
    ]);
    const everything = [
      'redis-server',
      'redis-cli',
      'prometheus',
      'promtool',
      'prometheus-alertmanager',
      'openssl',
      'curl',
      'buildah',
      'debootstrap',
      'docker-registry',
      'chromium',
    ];
    const fakes = Object.fromEntries(everything.map((p) => [p, 'exit 0']));
    rmSync(bin, { recursive: true, force: true });
    const full = run(machine([], fakes));
    expect([full.status, full.stderr]).toEqual([0, '']);
  });
});
