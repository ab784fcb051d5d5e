#!/usr/bin/env node
// @ts-check
// Prints the CHANGELOG.md section of one version (its body, without the `## [X] - date` heading):
// the GitHub release notes of vX. Exits 1, naming what to fix, when the section is missing or empty.
// Usage: node scripts/release/changelog-section.js X [CHANGELOG.md]
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const [version, file = join(__dirname, '..', '..', 'CHANGELOG.md')] = process.argv.slice(2);
if (!version) {
  console.error('usage: changelog-section.js VERSION [CHANGELOG.md]');
  process.exit(2);
}
const lines = readFileSync(file, 'utf8').split('\n');
const start = lines.findIndex((l) => l.startsWith(`## [${version}]`));
if (start < 0) {
  console.error(`${file} has no "## [${version}] - YYYY-MM-DD" section: run npm version (it moves [Unreleased] there)`);
  process.exit(1);
}
const rest = lines.slice(start + 1);
const end = rest.findIndex((l) => l.startsWith('## [') || /^\[[^\]]+\]: /.test(l));
const body = (end < 0 ? rest : rest.slice(0, end)).join('\n').trim();
if (!body) {
  console.error(`${file}: the section of ${version} is empty`);
  process.exit(1);
}
console.log(body);
