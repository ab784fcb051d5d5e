import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/server-process';
import { runCli } from './run-cli';

/**
 * What a policy repository gets: the package as `npm pack` makes it, installed from the tarball with
 * production dependencies only into an empty directory, then run from a checkout that holds
 * nothing but policies (the starter set), as the GitHub Action does.
 */
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  devDependencies: Record<string, string>;
  dependencies: Record<string, string>;
};
const INSTALL_BUDGET_MB = 40;
/** How far a size the docs give ("about 34 MB") may be from what is measured here. */
const FIGURE_TOLERANCE = 0.1;
const NOW = '2026-03-02T10:00:00Z';
let work: string;
let repo: string;
let tarball: string;
let installSeconds = 0;

const npm = (args: string[], cwd: string) =>
  spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
    timeout: 300_000,
  });
const cli = (args: string[]) => {
  const run = spawnSync(join(repo, 'node_modules', '.bin', 'preflight-gate'), args, {
    cwd: repo,
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
    timeout: 30_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
};

function sizeOf(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, entry) => sum + sizeOf(join(path, entry)), 0);
}

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js')))
    throw new Error('dist/ is missing: npm test builds it (pretest); run npm run build');
  work = mkdtempSync(join(tmpdir(), 'preflight-pack-'));
  // --ignore-scripts: dist/ is already built by pretest; `prepare` would build it again.
  const pack = npm(['pack', '--ignore-scripts', '--pack-destination', work, '--json'], ROOT);
  if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  tarball = join(work, (JSON.parse(pack.stdout) as Array<{ filename: string }>)[0].filename);
  repo = join(work, 'policy-repo');
  mkdirSync(repo);
  writeFileSync(join(repo, 'package.json'), '{"name":"policy-repo","private":true}\n');
  cpSync(join(ROOT, 'policies'), join(repo, 'policies'), { recursive: true });
  const started = Date.now();
  const install = npm(['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', tarball], repo);
  installSeconds = (Date.now() - started) / 1000;
  if (install.status !== 0) throw new Error(`npm install of the tarball failed: ${install.stderr}`);
  process.stderr.write(
    `npm package: tarball ${Math.round(statSync(tarball).size / 1024)} kB, install ${installSeconds.toFixed(1)} s, node_modules ${(sizeOf(join(repo, 'node_modules')) / 1e6).toFixed(1)} MB\n`,
  );
}, 320_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the npm package, installed from its tarball with production dependencies only', () => {
  it('holds the built CLI, bin and starter policies, and no sources, tests or chart', () => {
    const list = spawnSync('tar', ['tzf', tarball], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
    expect(list).toEqual(
      expect.arrayContaining([
        'package/bin/preflight-gate.js',
        'package/dist/cli/main.js',
        'package/dist/main.js',
        // The playground page (preflight-gate playground, PLAYGROUND=on), built by npm run build.
        'package/dist/playground/page/index.html',
        'package/dist/playground/page/playground.js',
        'package/dist/playground/page/playground.css',
        'package/policies/production-guardrails.yaml',
        'package/package.json',
        'package/LICENSE',
        'package/CHANGELOG.md',
        'package/README.md',
      ]),
    );
    expect(list.filter((f) => /^package\/(src|test|helm|scripts|bench|docs)\//.test(f))).toEqual([]);
  });

  it(`installs no devDependency and stays under ${INSTALL_BUDGET_MB} MB`, () => {
    const modules = join(repo, 'node_modules');
    for (const dev of Object.keys(pkg.devDependencies))
      expect([dev, existsSync(join(modules, dev))]).toEqual([dev, false]);
    for (const dep of Object.keys(pkg.dependencies)) expect([dep, existsSync(join(modules, dep))]).toEqual([dep, true]);
    expect(sizeOf(modules) / 1e6).toBeLessThan(INSTALL_BUDGET_MB);
  });

  it(`gives the sizes the docs state, within ${FIGURE_TOLERANCE * 100}%: the production dependencies (docs/policy-workflow.md), the playground's script (docs/playground.md)`, () => {
    const prose = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/\s+/g, ' ');
    const workflow = prose('docs/policy-workflow.md');
    const measured = [
      {
        what: 'docs/policy-workflow.md: production dependencies',
        said: [
          ...workflow.matchAll(/production dependencies only \(about ([\d.]+) MB/g),
          ...workflow.matchAll(/about ([\d.]+) MB of production dependencies/g),
        ],
        mb: sizeOf(join(repo, 'node_modules')) / 1e6,
      },
      {
        what: "docs/playground.md: the page's script",
        said: [...prose('docs/playground.md').matchAll(/The page is one script of about ([\d.]+) MB/g)],
        mb:
          statSync(join(repo, 'node_modules', 'preflight-gate', 'dist', 'playground', 'page', 'playground.js')).size /
          1e6,
      },
    ];
    for (const { what, said, mb } of measured) {
      expect([what, said.length > 0]).toEqual([what, true]);
      for (const [, figure] of said)
        expect({ what, said: `about ${figure} MB`, measured: `${mb.toFixed(2)} MB` }).toEqual({
          what,
          said:
            Math.abs(Number(figure) - mb) <= mb * FIGURE_TOLERANCE
              ? `about ${figure} MB`
              : `about ${mb.toPrecision(2)} MB`,
          measured: `${mb.toFixed(2)} MB`,
        });
    }
  });

  it('prints its version', () => {
    expect(cli(['--version'])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('validates and tests the starter policies from a checkout that holds only policies', () => {
    const validate = cli(['validate', 'policies']);
    expect([validate.code, validate.stdout]).toEqual([0, expect.stringMatching(/valid \(0 errors/)]);
    const test = cli(['test', 'policies', '--format', 'junit']);
    expect(test.code).toBe(0);
    expect(test.stdout).toMatch(/<testsuites name="preflight-gate policy tests" tests="\d+" failures="0" time="/);
  });

  it('evaluates a payload exactly as the CLI of this checkout does', () => {
    const args = [
      'eval',
      '--payload',
      'policies/testdata/run.json',
      '--dir',
      'policies',
      '--now',
      NOW,
      '--format',
      'json',
    ];
    const installed = cli(args);
    const here = runCli(args, { cwd: repo });
    expect(installed.code).toBe(0);
    // Every decision gets a new id; everything else must be the same.
    const strip = (out: string) =>
      out.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<decision id>');
    expect(strip(installed.stdout)).toBe(strip(here.stdout));
    expect(JSON.parse(installed.stdout)).toMatchObject({ status: 200, allowed: true });
  });
});
