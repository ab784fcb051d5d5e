import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadConfig } from '../../src/service/config';
import { ROOT } from '../helpers/server-process';

/** The settings table moved from the README to docs/configuration.md (the README links to it). */
const CONFIGURATION = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');

/** The rows of docs/configuration.md's table: variable -> default, as written. */
function configTable(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const m of CONFIGURATION.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \| ([^|]+) \|/gm)) rows.set(m[1], m[2].trim());
  return rows;
}

/** Every environment variable src/service/config.ts and the config parsers it imports read. */
function variablesRead(): Set<string> {
  const configFile = join(ROOT, 'src', 'service', 'config.ts');
  const text = readFileSync(configFile, 'utf8');
  const files = [
    configFile,
    ...[...text.matchAll(/from '(\.\/[^']+-config)'/g)].map((m) => resolve(dirname(configFile), `${m[1]}.ts`)),
  ];
  const names = new Set<string>();
  for (const file of files) {
    for (const m of readFileSync(file, 'utf8').matchAll(/env\.([A-Z][A-Z0-9_]+)|\(env, '([A-Z][A-Z0-9_]+)'/g))
      names.add(m[1] ?? m[2]);
  }
  return names;
}

describe('the configuration table of docs/configuration.md', () => {
  test('lists every environment variable the service reads', () => {
    const read = variablesRead();
    expect(read.size).toBeGreaterThanOrEqual(7);
    expect([...read].filter((name) => !configTable().has(name))).toEqual([]);
  });

  test('gives the defaults loadConfig really uses', () => {
    const defaults = loadConfig({});
    const table = configTable();
    expect(table.get('PORT')).toBe(`\`${defaults.port}\``);
    expect(table.get('HOST')).toBe(`\`${defaults.host}\``);
    expect(table.get('POLICY_DIR')).toBe(`\`${defaults.policyDir}\``);
    expect(table.get('BODY_LIMIT')).toBe(`\`${defaults.bodyLimit}\``);
    expect(table.get('LOG_LEVEL')).toBe(`\`${defaults.logLevel}\``);
    expect(table.get('SHUTDOWN_TIMEOUT_MS')).toBe(`\`${defaults.shutdownTimeoutMs}\``);
    expect(defaults.secrets).toEqual([]);
    expect(table.get('WEBHOOK_SECRET')).toBe('unset');
  });
});
