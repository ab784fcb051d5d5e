#!/usr/bin/env node
// @ts-check
// package.json's version is the one source of every version a release carries. `npm version X`
// runs this (the `version` script) after writing X into package.json and before committing and
// tagging vX: it writes X into the chart (version, appVersion: the image tag it installs by
// default), the Action (the CLI package it installs by default, its `uses:` example), the README and
// docs examples, and moves the CHANGELOG's [Unreleased] section to [X] with today's date; the first
// time, it also removes the docs' "not released yet" notices (release-state.js).
// The image labels and preflight_gate_build_info read package.json itself. Usage:
//   node scripts/release/sync-version.js [--check | --release]
//   --check: change nothing, exit 1 on drift. --release (the `version` script): cut the release, the
//   CHANGELOG move included. Neither: write the version into the files, and before the first
//   release leave the CHANGELOG and the notices alone, so that fixing a drift never dates a release.
// The files follow the CHANGELOG's state: before the first release the Action builds the CLI from
// its own checkout (package: "") and the notices stay; once package.json's version has its dated
// section, the Action installs that release from npm and no notice is left.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { NOTICE_FILES, releasedVersions, withoutNotices } = require('./release-state');

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const version = pkg.version;
const repo = /github\.com\/([^/]+\/[^/.]+)/.exec(pkg.repository.url)?.[1];
if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version))
  throw new Error(`package.json version ${version} is not a semantic version`);
if (!repo) throw new Error(`package.json repository.url ${pkg.repository.url} names no GitHub repository`);

/** @type {Array<[RegExp, string]>} How the docs name a release: the Action, the image, the chart, the CLI. */
const RELEASE_REFS = [
  [/(uses: )[\w.-]+\/preflight-gate@v[\w.-]+/g, `$1${repo}@v${version}`],
  [/(ghcr\.io\/[\w.-]+\/preflight-gate:)\d[\w.-]*/g, `$1${version}`],
  [/(charts\/preflight-gate --version )\d[\w.-]*/g, `$1${version}`],
  [/(npm install (?:-g |--save-dev )?preflight-gate@)\d[\w.-]*/g, `$1${version}`],
  // What `npm run release:local` builds (scripts/release/build-local.sh), and the first release's command.
  [/(\.release\/(?:npm|chart|image)\/preflight-gate-)\d+\.\d+\.\d+[\w.-]*?(\.tgz|\.tar)/g, `$1${version}$2`],
  [/(localhost\/preflight-gate:)\d[\w.-]*\w/g, `$1${version}`],
  [/(npm version )\d+\.\d+\.\d+[\w.-]*( --allow-same-version)/g, `$1${version}$2`],
];

/** @type {Record<string, Array<[RegExp, string]>>} file -> [pattern, replacement] */
const EDITS = {
  'helm/Chart.yaml': [
    [/^version: .*$/m, `version: ${version}`],
    [/^appVersion: .*$/m, `appVersion: "${version}"`],
  ],
  'action.yml': [[/(uses: )[\w.-]+\/preflight-gate@v[\w.-]+/g, `$1${repo}@v${version}`]],
  'README.md': [...RELEASE_REFS, [/preflight-gate-\d+\.\d+\.\d+[\w.-]*\.tgz/g, `preflight-gate-${version}.tgz`]],
  'docs/releasing.md': RELEASE_REFS,
  'docs/getting-started.md': RELEASE_REFS,
  'docs/helm.md': RELEASE_REFS,
  'docs/policy-workflow.md': [
    ...RELEASE_REFS,
    [/preflight-gate-\d+\.\d+\.\d+[\w.-]*\.tgz/g, `preflight-gate-${version}.tgz`],
  ],
  'docs/test-coverage.md': [[/(uses: )[\w.-]+\/preflight-gate@v[\w.-]+/g, `$1${repo}@v${version}`]],
  'CHANGELOG.md': [[/(npm version )\d+\.\d+\.\d+[\w.-]*( --allow-same-version)/g, `$1${version}$2`]],
  'examples/github-workflow.yml': [[/(uses: )[\w.-]+\/preflight-gate@v[\w.-]+/g, `$1${repo}@v${version}`]],
};

/** [Unreleased] becomes [version] - today, under a new empty [Unreleased]; the compare links follow. */
function changelog(text) {
  if (new RegExp(`^## \\[${version.replace(/\./g, '\\.')}\\]`, 'm').test(text)) return text;
  const today = new Date().toISOString().slice(0, 10);
  const out = text.replace(/^## \[Unreleased\]\n/m, `## [Unreleased]\n\n## [${version}] - ${today}\n`);
  const previous = /^## \[(\d[^\]]*)\]/m.exec(text)?.[1];
  const links = `[Unreleased]: https://github.com/${repo}/compare/v${version}...HEAD\n[${version}]: https://github.com/${repo}/${previous ? `compare/v${previous}...v${version}` : `releases/tag/v${version}`}\n`;
  return out.replace(/^\[Unreleased\]: .*\n/m, links);
}

/** The Action's default CLI: the release of its version once it is published, else built from its checkout. */
function actionPackage(text, released) {
  return text.replace(
    /( {2}package:\n(?: {4}description: .*\n)? {4}default: )"?[^\n]*"?/,
    `$1"${released ? `${pkg.name}@${version}` : ''}"`,
  );
}

const check = process.argv.includes('--check');
const changelogBefore = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
// --release (npm version) gives package.json's version its section. Otherwise the CHANGELOG is held
// as it is, and a version with no section yet is drift only after a first release.
const cut = (!check && process.argv.includes('--release')) || releasedVersions(changelogBefore).length > 0;
const changelogAfter = cut ? changelog(changelogBefore) : changelogBefore;
const released = releasedVersions(changelogAfter);
const drift = [];
const files = [...new Set([...Object.keys(EDITS), ...NOTICE_FILES, 'CHANGELOG.md'])];
for (const file of files) {
  const before = readFileSync(join(ROOT, file), 'utf8');
  let after = (EDITS[file] ?? []).reduce(
    (text, [pattern, replacement]) => text.replace(pattern, replacement),
    file === 'CHANGELOG.md' ? changelogAfter : before,
  );
  if (file === 'action.yml') after = actionPackage(after, released.includes(version));
  if (released.length > 0 && NOTICE_FILES.includes(file)) after = withoutNotices(after);
  if (after === before) continue;
  drift.push(file);
  if (!check) writeFileSync(join(ROOT, file), after);
}
if (check && drift.length > 0) {
  console.error(
    `not at package.json's version ${version} (${repo}): ${drift.join(', ')}; run node scripts/release/sync-version.js`,
  );
  process.exit(1);
}
console.log(
  drift.length > 0 ? `${check ? 'would set' : 'set'} ${version} in ${drift.join(', ')}` : `every file is at ${version}`,
);
