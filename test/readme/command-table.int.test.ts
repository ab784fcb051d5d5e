import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/server-process';
import { runCli } from '../cli/run-cli';

test('every command of preflight-gate --help has a row in the command table of docs/policy-workflow.md', () => {
  const help = runCli(['--help']).stdout;
  const commands = [...help.slice(help.indexOf('Commands:')).matchAll(/^ {2}([a-z-]+)\b/gm)]
    .map((m) => m[1])
    .filter((c) => c !== 'help');
  expect(commands).toEqual(expect.arrayContaining(['validate', 'doctor', 'connect', 'serve']));
  const doc = readFileSync(join(ROOT, 'docs', 'policy-workflow.md'), 'utf8');
  expect(commands.filter((c) => !new RegExp(`^\\| \`${c}\\b`, 'm').test(doc))).toEqual([]);
});
