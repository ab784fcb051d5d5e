import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/server-process';
import { startNpmRegistry, type NpmRegistry } from './npm-registry';

/**
 * The release's npm step rehearsed with real parts: the package `npm pack` makes (by
 * `npm run release:local`, scripts/release/build-local.sh) is published to a
 * local npm registry (verdaccio), then installed from it by name and version into an empty
 * directory, with production dependencies only, where its CLI validates and tests the policies it
 * bundles.
 */
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  license: string;
  repository: { url: string };
};
let registry: NpmRegistry;
let work: string;

const npm = (args: string[], cwd: string) => {
  const run = spawnSync('npm', [...args, '--registry', `${registry.url}/`, '--no-audit', '--no-fund'], {
    cwd,
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (run.status !== 0)
    throw new Error(
      `npm ${args.join(' ')} failed (${run.status}): ${run.stderr}\nverdaccio: ${registry.log().slice(-2000)}`,
    );
  return run.stdout;
};

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js')))
    throw new Error('dist/ is missing: npm test builds it (pretest); run npm run build');
  registry = await startNpmRegistry(pkg.name);
  work = mkdtempSync(join(tmpdir(), 'pg-npm-publish-'));
}, 60_000);
afterAll(async () => {
  await registry?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('the npm package through an npm registry', () => {
  it('is published, described by the registry as released, installed back by version, and its CLI validates and tests the bundled policies', () => {
    // --prebuilt: dist/ is already built by pretest. Provenance needs a CI's OIDC token: the workflow asks for it.
    const packed = spawnSync(
      'bash',
      [join(ROOT, 'scripts', 'release', 'build-local.sh'), '--out', work, '--prebuilt', 'npm'],
      { encoding: 'utf8' },
    );
    const tarball = join(work, 'npm', `${pkg.name}-${pkg.version}.tgz`);
    expect([packed.status, packed.stdout]).toEqual([0, `npm ${tarball}\n`]);
    expect(
      npm(
        ['publish', tarball, `--//${new URL(registry.url).host}/:_authToken=${registry.token}`, '--provenance=false'],
        work,
      ),
    ).toContain(`+ ${pkg.name}@${pkg.version}`);

    const view = JSON.parse(npm(['view', `${pkg.name}@${pkg.version}`, '--json'], work)) as Record<string, unknown>;
    expect(view).toMatchObject({
      name: pkg.name,
      version: pkg.version,
      license: 'MIT',
      repository: { url: pkg.repository.url },
      bin: { 'preflight-gate': 'bin/preflight-gate.js' },
    });
    expect(view).not.toHaveProperty('private');

    const repo = join(work, 'policy-repo');
    mkdirSync(repo);
    writeFileSync(join(repo, 'package.json'), '{"name":"policy-repo","private":true}\n');
    npm(['install', '--omit=dev', `${pkg.name}@${pkg.version}`], repo);
    const cli = (...args: string[]) =>
      spawnSync(join(repo, 'node_modules', '.bin', 'preflight-gate'), args, {
        cwd: repo,
        encoding: 'utf8',
        env: { PATH: process.env.PATH },
      });
    expect(cli('--version').stdout).toBe(`${pkg.version}\n`);
    const bundled = join('node_modules', pkg.name, 'policies');
    const validate = cli('validate', bundled);
    expect([validate.status, validate.stdout]).toEqual([0, expect.stringMatching(/valid \(0 errors/)]);
    const test = cli('test', bundled);
    expect([test.status, test.stdout]).toEqual([0, expect.stringMatching(/^OK: \d+ suites \(0 failed\)/m)]);
    expect(existsSync(join(repo, 'node_modules', 'typescript'))).toBe(false);
  }, 300_000);
});
