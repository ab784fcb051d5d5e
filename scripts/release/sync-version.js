#!/usr/bin/env node
// @ts-check
// package.json's version is the one source of every version a release carries. `npm version X`
// runs this (the `version` script) after writing X into package.json and before committing and
// tagging vX: it writes X into the chart (version, appVersion: the image tag it installs by
// default), the Action (the CLI package it installs by default, its `uses:` example), the README and
// docs examples, and moves the CHANGELOG's [Unreleased] section to [X] with today's date.
// The image labels and preflight_gate_build_info read package.json itself. Usage:
//   node scripts/release/sync-version.js [--check]   (--check: change nothing, exit 1 on drift)
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

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
];

/** @type {Record<string, Array<[RegExp, string]>>} file -> [pattern, replacement] */
const EDITS = {
  'helm/Chart.yaml': [
    [/^version: .*$/m, `version: ${version}`],
    [/^appVersion: .*$/m, `appVersion: "${version}"`],
  ],
  'action.yml': [
    [/(uses: )[\w.-]+\/preflight-gate@v[\w.-]+/g, `$1${repo}@v${version}`],
    [/( {2}package:\n(?: {4}description: .*\n)? {4}default: )"?[^\n]*"?/, `$1"${pkg.name}@${version}"`],
  ],
  'README.md': [...RELEASE_REFS, [/preflight-gate-\d+\.\d+\.\d+[\w.-]*\.tgz/g, `preflight-gate-${version}.tgz`]],
  'docs/releasing.md': RELEASE_REFS,
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

const check = process.argv.includes('--check');
const drift = [];
for (const [file, edits] of Object.entries({ ...EDITS, 'CHANGELOG.md': [] })) {
  const before = readFileSync(join(ROOT, file), 'utf8');
  let after = edits.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), before);
  if (file === 'CHANGELOG.md') after = changelog(after);
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
