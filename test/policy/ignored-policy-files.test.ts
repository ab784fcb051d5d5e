import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ignoredFilesWarning, ignoredPolicyFiles } from '../../src/policy/loading/ignored-policy-files';
import { suiteFileReferences } from '../../src/policy/loading/suite-file-references';
import { ROOT } from '../helpers/server-process';

/**
 * Files in the policy directory the loader does not read are named once (validate, the service):
 * a policy written as JSON or left behind as a backup would otherwise silently not apply.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ignored-files-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const SUITE =
  'policies: .\ndefaults:\n  payloadFile: testdata/run.json\ncases:\n  - { name: a, signalsFile: ../shared/signals.json }\n';

test('names what someone may have meant as a policy; not policies, suites, docs, hidden files or what suites read', () => {
  const dir = dirWith({
    'prod.yaml': '',
    'prod.YML': '',
    'prod.test.yaml': SUITE,
    'prod.json': '{}',
    'prod.yaml.bak': '',
    'prod.yml~': '',
    'old/staging.yaml.orig': '',
    'README.md': '',
    'docs/notes.txt': '',
    LICENSE: '',
    CODEOWNERS: '',
    '.git/config': '',
    '.prod.yaml.swp': '',
    '..data/prod.yaml': '',
    'testdata/run.json': '{}',
    'testdata/other.json': '{}',
  });
  expect(ignoredPolicyFiles(dir, suiteFileReferences(dir))).toEqual([
    'old/staging.yaml.orig',
    'prod.json',
    'prod.yaml.bak',
    'prod.yml~',
    'testdata/other.json',
  ]);
});

test('the starter policies have nothing to warn about (their suites read testdata/run.json)', () => {
  const dir = join(ROOT, 'policies');
  expect(ignoredPolicyFiles(dir, suiteFileReferences(dir))).toEqual([]);
});

test('a directory that cannot be read names nothing (the loader reports it)', () => {
  expect(ignoredPolicyFiles(join(tmpdir(), 'no-such-policy-dir-xyz'))).toEqual([]);
});

test('one warning naming the files, at most ten of them', () => {
  expect(ignoredFilesWarning([])).toBeUndefined();
  expect(ignoredFilesWarning(['prod.json', 'prod.yaml.bak'])).toBe(
    'not loaded, ignored: prod.json, prod.yaml.bak; only *.yaml and *.yml files are policies (rename one meant as a policy to <name>.yaml, move the others out of the policy directory; docs/policies.md#the-policy-directory)',
  );
  const many = Array.from({ length: 12 }, (_, i) => `p${i}.json`);
  expect(ignoredFilesWarning(many)).toMatch(/: p0\.json, .*, p9\.json and 2 more; only/);
});
