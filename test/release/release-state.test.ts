import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  firstReleaseReference,
  NOTICE_FILES,
  notices,
  releasedVersions,
  withoutNotices,
} from '../../scripts/release/release-state';
import { ROOT } from '../helpers/server-process';

/**
 * What is released is what the CHANGELOG dates (`npm version` writes the section). Until the first
 * release no image, chart, npm package or Action tag exists, so no doc may read as if one did: every
 * doc that names one says first that none is published and how to build it here, and the Action's
 * default builds the CLI from its own checkout instead of installing a package npm does not have.
 */
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { name: string; version: string; scripts: Record<string, string> };
const released = releasedVersions(read('CHANGELOG.md'));

/** The docs a user reads: the top-level Markdown files, docs/ (not the decision records), the chart's README, examples/, the Action. */
function docs(): string[] {
  const top = readdirSync(ROOT).filter((f) => f.endsWith('.md'));
  const under = (dir: string, keep: (f: string) => boolean) =>
    readdirSync(join(ROOT, dir))
      .filter(keep)
      .map((f) => `${dir}/${f}`);
  return [
    ...top,
    ...under('docs', (f) => f.endsWith('.md')),
    'helm/README.md',
    ...under('examples', (f) => /\.(ya?ml|md)$/.test(f)),
    'action.yml',
  ];
}

describe('the CHANGELOG says what is released', () => {
  it('a release is a dated section; [Unreleased] and undated headings are not', () => {
    expect(
      releasedVersions(
        '## [Unreleased]\n\n## [1.2.0-rc.1] - 2027-01-02\n\n## [1.1.0]\n\n## [1.0.0] - 2026-12-01\n\n[1.0.0]: x\n',
      ),
    ).toEqual(['1.2.0-rc.1', '1.0.0']);
    expect(releasedVersions('## [Unreleased]\n\n### Added\n\n- Everything.\n')).toEqual([]);
  });

  it("the Action installs the npm release of package.json's version only once it is released, else builds the CLI from its checkout", () => {
    const action = parse(read('action.yml')) as { inputs: { package: { default: string } } };
    expect(action.inputs.package.default).toBe(released.includes(pkg.version) ? `${pkg.name}@${pkg.version}` : '');
  });
});

describe('the docs say what is released', () => {
  it('every doc that names a published artifact is one whose notices sync-version.js removes at the first release', () => {
    const naming = docs().filter((f) => firstReleaseReference(read(f)) >= 0);
    expect(naming.length).toBeGreaterThan(3);
    expect(naming.filter((f) => !NOTICE_FILES.includes(f))).toEqual([]);
  });

  it('before the first release, each of them says so before it first names an artifact; after it, none does', () => {
    for (const file of NOTICE_FILES) {
      const text = read(file);
      const first = firstReleaseReference(text);
      const found = notices(text);
      if (released.length > 0) expect([file, found]).toEqual([file, []]);
      else
        expect([file, found.length > 0, first < 0 || (found[0]?.at ?? Number.POSITIVE_INFINITY) < first]).toEqual([
          file,
          true,
          true,
        ]);
    }
  });

  it("a doc's first notice block gives the one command that builds the image, the chart and the package here; notices name the version the release will have", () => {
    expect(pkg.scripts['release:local']).toBe('bash scripts/release/build-local.sh');
    if (released.length > 0) return;
    const firstBlocks = NOTICE_FILES.flatMap((file) => {
      const block = notices(read(file)).find((n) => n.block);
      return block ? [[file, block.text]] : [];
    });
    expect(firstBlocks.length).toBeGreaterThanOrEqual(5);
    for (const [file, text] of firstBlocks)
      expect([file, text]).toEqual([file, expect.stringContaining('npm run release:local')]);
    for (const file of NOTICE_FILES)
      for (const { text } of notices(read(file))) {
        const versions = [...text.matchAll(/\d+\.\d+\.\d+/g)].map((m) => m[0]);
        expect([file, versions.filter((v) => v !== pkg.version)]).toEqual([file, []]);
      }
  });

  it('without its notices a doc reads as after the release: no marker, no notice text, no doubled blank line', () => {
    for (const file of NOTICE_FILES) {
      const before = read(file);
      const after = withoutNotices(before);
      expect([
        file,
        notices(after),
        /unreleased -->|# unreleased:|\*\*(?:Not|No version is) released yet/.test(after),
      ]).toEqual([file, [], false]);
      const blankRuns = (text: string) => text.split(/\n{3,}/).length;
      expect([file, blankRuns(after)]).toEqual([file, blankRuns(before)]);
    }
    expect(
      withoutNotices(
        'para\n\n<!-- unreleased -->\n> None yet.\n<!-- /unreleased -->\n\nnext, x<!-- unreleased --> (not yet)<!-- /unreleased --> y\n  # unreleased: pin a commit\n  uses: a\n',
      ),
    ).toBe('para\n\nnext, x y\n  uses: a\n');
  });
});
