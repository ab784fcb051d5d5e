import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readShareFragment } from '../../src/playground/share-link';
import { runCli, tempDir } from '../cli/run-cli';
import { FIXTURES } from '../helpers/fixtures';

const CASE = join(FIXTURES, 'cases', 'production-blocked');

test('eval --share prints a playground link holding the payload, every policy file, now and the facts', () => {
  const facts = tempDir({
    'state.json': JSON.stringify({ emergencyStop: { engaged: false } }),
    'names.json': JSON.stringify({ 'env-1': { name: 'production' } }),
    'teams.json': JSON.stringify({ SRE: { members: [{ username: 'joe' }] } }),
  });
  const policies = tempDir({ 'a.yaml': 'kind: Policy\nname: a\nrules: []\n', 'sub/b.yml': 'x: [' });
  const res = runCli([
    'eval',
    '--share',
    '--payload',
    join(CASE, 'payload.json'),
    '--dir',
    policies.dir,
    '--now',
    '2026-01-05T10:00:00Z',
    '--state',
    join(facts.dir, 'state.json'),
    '--environments',
    join(facts.dir, 'names.json'),
    '--teams',
    join(facts.dir, 'teams.json'),
  ]);
  expect(res.stderr).toBe('');
  expect(res.code).toBe(0);
  const [base, fragment] = res.stdout.trim().split('#');
  expect(base).toBe('http://127.0.0.1:8090/');
  const read = readShareFragment(fragment);
  expect(read).toEqual({
    ok: true,
    input: {
      // Files are named by their path in the directory; a broken one is shared as it is, to show where it breaks.
      policies: { 'a.yaml': 'kind: Policy\nname: a\nrules: []\n', 'sub/b.yml': 'x: [' },
      payload: JSON.parse(readFileSync(join(CASE, 'payload.json'), 'utf8')),
      now: '2026-01-05T10:00:00.000Z',
      facts: {
        state: { emergencyStop: { engaged: false } },
        environments: { 'env-1': { name: 'production' } },
        teams: { SRE: { members: [{ username: 'joe' }] } },
      },
    },
  });
});

test('eval --share-base points the link at another playground; a payload that is not JSON is a usage error', () => {
  const args = ['eval', '--share', '--dir', CASE, '--now', '2026-01-05T10:00:00Z'];
  const res = runCli([
    ...args,
    '--payload',
    join(CASE, 'payload.json'),
    '--share-base',
    'https://gate.example/playground',
  ]);
  expect(res.stdout).toMatch(/^https:\/\/gate\.example\/playground#[A-Za-z0-9_-]+\n$/);
  const bad = tempDir({ 'p.json': '{"event": ' });
  const broken = runCli([...args, '--payload', join(bad.dir, 'p.json')]);
  expect(broken.code).toBe(2);
  expect(broken.stderr).toMatch(/p\.json:1:\d+: payload is not valid JSON/);
});
