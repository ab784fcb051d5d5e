import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/server-process';
import { fakeBin, locateOnThisMachine, writeFake } from './fake-bin';

/**
 * scripts/ensure-test-deps.sh on machines that lack what the tests start: it names each missing
 * program, its Debian package and what needs it, before installing anything, and stops with that
 * list where it cannot install (no apt-get).
 */
const SCRIPT = join(ROOT, 'scripts', 'ensure-test-deps.sh');
let bin: string;

/** A PATH of bash, `id`, the given programs of this machine and the fakes (fake-bin.ts); removed after each test. */
function machine(programs: string[], fakes: Record<string, string> = {}): string {
  bin = fakeBin(programs, fakes);
  return bin;
}
afterEach(() => rmSync(bin, { recursive: true, force: true }));

const run = (path: string, env: Record<string, string> = {}) =>
  spawnSync(join(path, 'bash'), [SCRIPT], {
    env: { PATH: path, PREFLIGHT_GATE_TEST_DEPS_SBIN: '', ...env },
    encoding: 'utf8',
  });

/** This machine's `id`, only read: its content must be the same after this file's tests as before. */
const REAL_ID = locateOnThisMachine('id');
const hashOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const REAL_ID_HASH = REAL_ID === undefined ? undefined : hashOf(REAL_ID);
afterAll(() => {
  if (REAL_ID !== undefined) expect(hashOf(REAL_ID)).toBe(REAL_ID_HASH);
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
      'faketime',
    ])
      expect(result.stderr).toContain(`(Debian package ${pkg})`);
    expect(result.stderr).not.toContain('package redis-server)');
    expect(result.stderr).toContain('this machine has no apt-get to install them: nothing installed.');
    expect(result.stderr).toMatch(
      /apt-get install -y --no-install-recommends redis-tools prometheus prometheus-alertmanager buildah debootstrap docker-registry chromium faketime\n$/,
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
      'installing with apt-get: prometheus prometheus-alertmanager buildah debootstrap docker-registry chromium faketime',
    );
    expect(said).toBeGreaterThan(result.stderr.indexOf('prometheus (Debian package prometheus)'));
    expect(said).toBeLessThan(result.stderr.indexOf('apt-get update'));
    expect(readFileSync(calls, 'utf8')).toBe(
      'apt-get update -qq\napt-get install -y -qq --no-install-recommends prometheus prometheus-alertmanager buildah debootstrap docker-registry chromium faketime\n',
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
      'faketime',
    ];
    const fakes = Object.fromEntries(everything.map((p) => [p, 'exit 0']));
    rmSync(bin, { recursive: true, force: true });
    const full = run(machine([], fakes));
    expect([full.status, full.stderr]).toEqual([0, '']);
  });
});

describe('the fake PATH of these tests never writes outside its own directory', () => {
  let decoyDir: string;
  let decoy: string;
  const DECOY = '#!/bin/sh\necho decoy\n';
  beforeEach(() => {
    decoyDir = mkdtempSync(join(tmpdir(), 'pg-decoy-'));
    decoy = join(decoyDir, 'id');
    writeFileSync(decoy, DECOY, { mode: 0o755 });
  });
  afterEach(() => rmSync(decoyDir, { recursive: true, force: true }));
  /** `id` is the decoy, every other program this machine's. */
  const decoyId = (name: string) => (name === 'id' ? decoy : locateOnThisMachine(name));

  it('links a program without a fake to where it is found (here: id to the decoy)', () => {
    bin = fakeBin([], {}, decoyId);
    expect(readlinkSync(join(bin, 'id'))).toBe(decoy);
  });

  it('writes a fake as a file of its own, leaving the program it replaces untouched', () => {
    bin = fakeBin([], { id: 'echo 0' }, decoyId);
    expect(lstatSync(join(bin, 'id')).isSymbolicLink()).toBe(false);
    expect(spawnSync(join(bin, 'id'), { encoding: 'utf8' }).stdout).toBe('0\n');
    expect(readFileSync(decoy, 'utf8')).toBe(DECOY);
  });

  it('refuses to write a fake where a link already is (EEXIST), instead of writing through it', () => {
    bin = mkdtempSync(join(tmpdir(), 'pg-deps-'));
    symlinkSync(decoy, join(bin, 'id'));
    expect(() => writeFake(bin, 'id', 'echo 0')).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(readFileSync(decoy, 'utf8')).toBe(DECOY);
    expect(readlinkSync(join(bin, 'id'))).toBe(decoy);
  });
});
