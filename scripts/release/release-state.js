// @ts-check
// Whether a version of preflight-gate is released, read from the CHANGELOG (a release is a dated
// `## [X.Y.Z] - YYYY-MM-DD` section, which `npm version` writes), and the notices the docs carry
// until the first one: no image, chart, npm package or Action tag exists before it, so every doc
// that names one says so first. sync-version.js removes the notices when it cuts the first
// release; test/release/release-state.test.ts checks the docs against the state.
'use strict';

/** The docs that name a published artifact, and so carry a notice before the first release. */
const NOTICE_FILES = [
  'README.md',
  'docs/getting-started.md',
  'docs/releasing.md',
  'docs/helm.md',
  'docs/test-coverage.md',
  'docs/policy-workflow.md',
  'helm/README.md',
  'examples/github-workflow.yml',
  'action.yml',
  'CHANGELOG.md',
];

/**
 * A notice: in Markdown `<!-- unreleased -->...<!-- /unreleased -->`, on lines of its own (a block)
 * or within a line; in YAML (and YAML code blocks) a comment line `# unreleased: ...`.
 */
const NOTICE_BLOCK = /^<!-- unreleased -->\n[\s\S]*?\n<!-- \/unreleased -->\n(?:\n(?=\S))?/gm;
const NOTICE_INLINE = /<!-- unreleased -->[\s\S]*?<!-- \/unreleased -->/g;
const NOTICE_COMMENT = /^[ \t]*# unreleased: .*\n/gm;

/**
 * What names a published artifact: the image or chart on ghcr.io, the package from the npm
 * registry, the Action at a release tag. A built tarball (`./preflight-gate-1.2.3.tgz`) is not one.
 */
const RELEASE_REFERENCE =
  /ghcr\.io\/[\w.-]+\/(?:charts\/)?preflight-gate\b|\bnpm (?:install|i) (?:-g |--global |--save-dev |-D )?preflight-gate(?![\w./-])|\bnpx preflight-gate@|uses: [\w.-]+\/preflight-gate@v/;

/**
 * The versions the CHANGELOG has a dated section of, newest first.
 * @param {string} changelog
 * @returns {string[]}
 */
function releasedVersions(changelog) {
  return [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+[\w.-]*)\] - \d{4}-\d{2}-\d{2}$/gm)].map((m) => m[1]);
}

/**
 * Where the notices of a file are (offsets), in the order they appear.
 * @param {string} text
 * @returns {Array<{ at: number, text: string, block: boolean }>}
 */
function notices(text) {
  const found = [...text.matchAll(NOTICE_INLINE), ...text.matchAll(NOTICE_COMMENT)].map((m) => ({
    at: m.index ?? 0,
    text: m[0],
    block: m[0].startsWith('<!-- unreleased -->\n'),
  }));
  return found.sort((a, b) => a.at - b.at);
}

/**
 * The file without its notices, as it reads after the first release.
 * @param {string} text
 */
function withoutNotices(text) {
  return text.replace(NOTICE_BLOCK, '').replace(NOTICE_INLINE, '').replace(NOTICE_COMMENT, '');
}

/**
 * Offset of the first reference to a published artifact, or -1.
 * @param {string} text
 */
function firstReleaseReference(text) {
  return text.search(RELEASE_REFERENCE);
}

module.exports = { NOTICE_FILES, RELEASE_REFERENCE, releasedVersions, notices, withoutNotices, firstReleaseReference };
