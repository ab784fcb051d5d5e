import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { NOTICE_FILES, notices, releasedVersions } from '../../scripts/release/release-state';
import { ROOT } from '../helpers/server-process';

/**
 * What makes the repository releasable: package.json is the one source of the version (the chart,
 * the Action and the docs agree with it, and `npm version` keeps them so), the repository named in
 * package.json is the one every reference names, a LICENSE and a Keep a Changelog CHANGELOG, and
 * workflows that actionlint accepts and that do what the release needs.
 */
interface Pkg {
  name: string;
  version: string;
  license: string;
  private?: boolean;
  repository: { url: string };
  files: string[];
  scripts: Record<string, string>;
}
const read = (file: string, root = ROOT) => readFileSync(join(root, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as Pkg;
const repo = /github\.com\/([^/]+\/[^/.]+)/.exec(pkg.repository.url)?.[1] ?? '';
const SYNCED = [
  ...new Set([
    'package.json',
    'helm/Chart.yaml',
    'action.yml',
    'README.md',
    'docs/releasing.md',
    'docs/getting-started.md',
    'docs/helm.md',
    'docs/test-coverage.md',
    'docs/policy-workflow.md',
    'examples/github-workflow.yml',
    'CHANGELOG.md',
    ...NOTICE_FILES,
    'scripts/release/sync-version.js',
    'scripts/release/release-state.js',
    'scripts/release/changelog-section.js',
  ]),
];
/** The versions the CHANGELOG dates: none before the first release. */
const released = releasedVersions(read('CHANGELOG.md'));
const node = (args: string[], cwd = ROOT) => spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });

describe('one version: package.json', () => {
  it('the chart, the Action and the docs carry package.json version and name its repository', () => {
    const chart = parse(read('helm/Chart.yaml')) as { version: string; appVersion: string; home: string };
    expect([chart.version, chart.appVersion]).toEqual([pkg.version, pkg.version]);
    expect(chart.home).toBe(`https://github.com/${repo}`);
    const action = parse(read('action.yml')) as { inputs: { package: { default: string } } };
    // Before the first release there is no package on npm: the Action builds the CLI from its checkout.
    expect(action.inputs.package.default).toBe(released.includes(pkg.version) ? `${pkg.name}@${pkg.version}` : '');
    for (const file of [
      'action.yml',
      'README.md',
      'docs/releasing.md',
      'docs/test-coverage.md',
      'docs/policy-workflow.md',
      'examples/github-workflow.yml',
    ]) {
      const uses = [...read(file).matchAll(/uses: ([\w.-]+\/preflight-gate)@(v?[\w.-]*\w)/g)].map(
        (m) => `${m[1]}@${m[2]}`,
      );
      expect([file, uses.length > 0, uses.filter((u) => u !== `${repo}@v${pkg.version}`)]).toEqual([file, true, []]);
    }
    const values = parse(read('helm/values.yaml')) as { image: { repository: string; tag: string } };
    expect(values.image).toMatchObject({ repository: `ghcr.io/${repo.toLowerCase()}`, tag: '' });
    expect(read('Dockerfile')).toContain(`ARG SOURCE=https://github.com/${repo}\n`);
    expect(node(['scripts/release/sync-version.js', '--check']).status).toBe(0);
  });

  it('names no placeholder repository anywhere', () => {
    const files = spawnSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
      .stdout.split('\n')
      .filter((f) => f && existsSync(join(ROOT, f)) && !f.startsWith('test/release/') && !/\.(png|gz|tgz)$/.test(f));
    expect(files.filter((f) => read(f).includes('your-org'))).toEqual([]);
  });

  it('npm version writes the new version everywhere, moves [Unreleased] in the CHANGELOG, points the Action at the release and removes the notices of an unreleased project; --check names a file that drifted', () => {
    const copy = mkdtempSync(join(tmpdir(), 'pg-version-'));
    try {
      for (const file of SYNCED) {
        mkdirSync(dirname(join(copy, file)), { recursive: true });
        cpSync(join(ROOT, file), join(copy, file));
      }
      writeFileSync(join(copy, 'package.json'), JSON.stringify({ ...pkg, version: '7.8.9' }, null, 2));
      // What a release adds under [Unreleased] before npm version.
      writeFileSync(
        join(copy, 'CHANGELOG.md'),
        read('CHANGELOG.md').replace(
          '## [Unreleased]\n',
          '## [Unreleased]\n\n### Added\n\n- The release workflow of 7.8.9.\n',
        ),
      );
      const drift = node(['scripts/release/sync-version.js', '--check'], copy);
      expect(drift.status).toBe(1);
      for (const file of [
        'helm/Chart.yaml',
        'action.yml',
        'README.md',
        'docs/releasing.md',
        'docs/policy-workflow.md',
        'examples/github-workflow.yml',
      ])
        expect(drift.stderr).toMatch(new RegExp(`: (.+, )?${file.replace(/\./g, '\\.')}(, |;)`));
      // Without --release (fixing a drift) the version is written, and nothing is released.
      expect(node(['scripts/release/sync-version.js'], copy).status).toBe(0);
      expect(parse(read('helm/Chart.yaml', copy))).toMatchObject({ version: '7.8.9', appVersion: '7.8.9' });
      expect(releasedVersions(read('CHANGELOG.md', copy))).toEqual(released);
      if (released.length === 0) expect(parse(read('action.yml', copy)).inputs.package.default).toBe('');
      // npm version: --release.
      expect(node(['scripts/release/sync-version.js', '--release'], copy).status).toBe(0);
      expect(parse(read('action.yml', copy)).inputs.package.default).toBe(`${pkg.name}@7.8.9`);
      // Released: no doc says otherwise any more.
      for (const file of NOTICE_FILES) expect([file, notices(read(file, copy))]).toEqual([file, []]);
      expect(read('README.md', copy)).toContain(`uses: ${repo}@v7.8.9`);
      expect(read('docs/releasing.md', copy)).toContain(`ghcr.io/${repo}:7.8.9\` (also`);
      expect(read('docs/releasing.md', copy)).toContain('charts/preflight-gate --version 7.8.9 ');
      expect(read('README.md', copy)).toContain('npm install --save-dev preflight-gate@7.8.9');
      expect(read('docs/policy-workflow.md', copy)).toContain(`uses: ${repo}@v7.8.9`);
      expect(read('docs/policy-workflow.md', copy)).toContain('./preflight-gate-7.8.9.tgz');
      const changelog = read('CHANGELOG.md', copy);
      expect(changelog).toMatch(/## \[Unreleased\]\n\n## \[7\.8\.9\] - \d{4}-\d{2}-\d{2}\n\n### Added/);
      const since = released[0] ? `compare/v${released[0]}...v7.8.9` : 'releases/tag/v7.8.9';
      expect(changelog).toContain(
        `[Unreleased]: https://github.com/${repo}/compare/v7.8.9...HEAD\n[7.8.9]: https://github.com/${repo}/${since}\n`,
      );
      expect(node(['scripts/release/changelog-section.js', '7.8.9', join(copy, 'CHANGELOG.md')]).stdout).toMatch(
        /^### Added\n\n- The release workflow/,
      );
      expect(node(['scripts/release/sync-version.js', '--check'], copy).status).toBe(0);
      // A version with nothing under [Unreleased] has no release notes: the release stops.
      writeFileSync(join(copy, 'package.json'), JSON.stringify({ ...pkg, version: '7.9.0' }, null, 2));
      expect(node(['scripts/release/sync-version.js', '--release'], copy).status).toBe(0);
      expect(node(['scripts/release/changelog-section.js', '7.9.0', join(copy, 'CHANGELOG.md')]).stderr).toContain(
        'the section of 7.9.0 is empty',
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('release files', () => {
  it('LICENSE is the MIT license package.json names; the package is publishable and ships the CHANGELOG', () => {
    expect(pkg.license).toBe('MIT');
    expect(read('LICENSE')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} /);
    expect(pkg.private).toBeUndefined();
    expect(pkg.files).toContain('CHANGELOG.md');
    expect(pkg.scripts.version).toBe('node scripts/release/sync-version.js --release && git add -u');
  });

  it('CHANGELOG follows Keep a Changelog: [Unreleased] first, once released a dated section for package.json version, links for each', () => {
    const changelog = read('CHANGELOG.md');
    const headings = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((m) => m[1]);
    expect(headings[0]).toBe('Unreleased');
    expect(headings.slice(1)).toEqual(released);
    for (const h of headings)
      expect(changelog).toMatch(new RegExp(`^\\[${h.replace(/\./g, '\\.')}\\]: https://github\\.com/${repo}/`, 'm'));
    for (const m of changelog.matchAll(/^### (.+)$/gm))
      expect(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']).toContain(m[1]);
    const section = node(['scripts/release/changelog-section.js', pkg.version]);
    if (released.length > 0) expect([section.status, section.stdout.length > 100]).toEqual([0, true]);
    // Not released: a tag of package.json's version stops in the release workflow's first job.
    else
      expect([section.status, section.stderr]).toEqual([
        1,
        expect.stringContaining(`has no "## [${pkg.version}] - YYYY-MM-DD" section: run npm version`),
      ]);
    expect(node(['scripts/release/changelog-section.js', '99.0.0']).stderr).toContain(
      'has no "## [99.0.0] - YYYY-MM-DD" section',
    );
  });
});

describe('workflows', () => {
  const lint = (pattern: string, cwd = ROOT) =>
    spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules', '@tktco', 'node-actionlint', 'bin', 'node-actionlint.js'), pattern],
      { cwd, encoding: 'utf8' },
    );
  interface Job {
    needs?: string | string[];
    permissions?: Record<string, string>;
    steps: { uses?: string; run?: string; with?: Record<string, unknown> }[];
  }
  const workflow = (file: string) => parse(read(file)) as { on: Record<string, unknown>; jobs: Record<string, Job> };
  const text = (job: Job) => JSON.stringify(job.steps);

  it('actionlint finds nothing in .github/workflows and the example, and does find a broken workflow', () => {
    const ours = lint('{.github/workflows/*.yml,examples/*.yml}');
    expect([ours.status, ours.stdout]).toEqual([
      0,
      expect.stringMatching(/^Checking 3 workflow file\(s\)\.\.\.\n✓ All workflow files passed lint checks/),
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'pg-actionlint-'));
    writeFileSync(
      join(dir, 'broken.yml'),
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      - uses: actions/checkout@v4\n        with: { no-such-input: 1 }\n',
    );
    const broken = lint('broken.yml', dir);
    rmSync(dir, { recursive: true, force: true });
    expect([broken.status, broken.stdout]).toEqual([
      1,
      expect.stringContaining('input "no-such-input" is not defined in action "actions/checkout@v4"'),
    ]);
  });

  it('ci.yml runs what .ci/run runs, on pushes to main and pull requests', () => {
    const ci = workflow('.github/workflows/ci.yml');
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push']);
    expect(Object.values(ci.jobs).map(text).join()).toContain('bash .ci/run');
  });

  it('release.yml: on a version tag, tests first, then the multi-arch signed image with SBOM, the OCI chart, npm with provenance, the release from the CHANGELOG', () => {
    const release = workflow('.github/workflows/release.yml');
    expect(release.on).toEqual({ push: { tags: ['v[0-9]+.[0-9]+.[0-9]+*'] } });
    const { check, test, image, chart, npm } = release.jobs;
    expect(text(check)).toContain('sync-version.js --check');
    expect(text(test)).toContain('bash .ci/run');
    for (const job of [image, npm]) expect(job.needs).toEqual(expect.arrayContaining(['test']));
    const build = image.steps.find((s) => s.uses?.startsWith('docker/build-push-action@'));
    expect(build?.with).toMatchObject({
      platforms: 'linux/amd64,linux/arm64',
      push: true,
      sbom: true,
      provenance: 'mode=max',
    });
    expect(text(image)).toMatch(/cosign sign --yes/);
    expect(image.steps.some((s) => s.uses?.startsWith('actions/attest-build-provenance@'))).toBe(true);
    expect(image.permissions).toMatchObject({ packages: 'write', 'id-token': 'write' });
    expect(text(chart)).toMatch(/helm push .*oci:\/\/ghcr\.io\//);
    expect(text(npm)).toContain('npm publish --provenance --access public');
    expect(npm.permissions).toMatchObject({ 'id-token': 'write' });
    expect(text(release.jobs['github-release'])).toMatch(/changelog-section\.js.*gh release create/);
    expect(release.jobs['github-release'].needs).toEqual(['check', 'image', 'chart', 'npm']);
  });
});
