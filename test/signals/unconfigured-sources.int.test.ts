import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { serviceSignalSource } from '../../src/signals/service-signal-source';
import type { Need } from '../../src/policy/facts/need';
import {
  UNCONFIGURED_FAIL_OPEN_ERROR,
  UNCONFIGURED_SOURCES_WARNING,
  unconfiguredSources,
} from '../../src/signals/unconfigured-sources';
import type { SignalsConfig } from '../../src/signals/signal-source';
import { capturingLogger } from '../helpers/capturing-logger';
import { preflightWith } from '../helpers/fixtures';
import { startServerProcess } from '../helpers/server-process';

jest.setTimeout(60000);

describe('signal sources the policies ask but the deployment does not configure', () => {
  const config: Pick<SignalsConfig, 'sources'> = {
    sources: [
      { kind: 'alertmanager', name: 'default', url: 'http://am:9093' },
      { kind: 'prometheus', name: 'eu', url: 'http://prom:9090' },
    ],
  };

  it.each<[string, Need[], string[]]>([
    [
      'configured ones',
      [
        { kind: 'alerts', source: 'default' },
        { kind: 'prometheus', source: 'eu', query: 'up' },
      ],
      [],
    ],
    [
      'each missing one once, by kind and name',
      [
        { kind: 'alerts', source: 'eu' },
        { kind: 'alerts', source: 'eu' },
        { kind: 'prometheus', source: 'default', query: 'a' },
        { kind: 'prometheus', source: 'default', query: 'b' },
      ],
      ['alertmanager "eu"', 'prometheus "default"'],
    ],
    ['needs of other sources', [{ kind: 'emergency-stop' }, { kind: 'running', per: 'team' }], []],
  ])('%s', (_what, needs, expected) => {
    expect(unconfiguredSources(needs, config)).toEqual(expected);
  });

  it('is said at start-up and again only when a later policy set (a reload) asks another one, preflight or guard', async () => {
    const { logger, lines } = capturingLogger();
    const first: Need[] = [{ kind: 'alerts', source: 'eu' }];
    const signals = serviceSignalSource(
      { ...config, cacheTtlMs: 0, timeoutMs: 1000 },
      { registry: new Registry(), logger, needs: first },
    );
    const run = preflightWith(() => undefined);
    await signals.preflight.gather(first, run, new Date());
    // The guard's tick is the first to ask the later set's source: said then, and not again by the next preflight.
    await signals.guard.gather([...first, { kind: 'prometheus', source: 'default', query: 'up' }], run, new Date());
    await signals.preflight.gather([{ kind: 'prometheus', source: 'default', query: 'up' }], run, new Date());
    expect(lines.filter((l) => l.level === 'warn').map((l) => [l.message, l.sources])).toEqual([
      [UNCONFIGURED_SOURCES_WARNING, ['alertmanager "eu"']],
      [UNCONFIGURED_SOURCES_WARNING, ['prometheus "default"']],
    ]);
  });

  it('tells rules that deny from rules with onUnavailable: allow, which are switched off', () => {
    const needs: Need[] = [
      { kind: 'alerts', source: 'eu' },
      { kind: 'prometheus', source: 'us', query: 'up', onUnavailable: 'allow' },
      { kind: 'json', source: 'pager', path: '/x', onUnavailable: 'allow' },
    ];
    expect(unconfiguredSources(needs, config)).toEqual(['alertmanager "eu"']);
    expect(unconfiguredSources(needs, config, 'allow')).toEqual(['prometheus "us"', 'json "pager"']);
  });

  it('says an error, not a warning, that rules with onUnavailable: allow let every run through unchecked', async () => {
    const { logger, lines } = capturingLogger();
    const needs: Need[] = [
      { kind: 'alerts', source: 'eu' },
      { kind: 'alerts', source: 'us', onUnavailable: 'allow' },
    ];
    const { preflight } = serviceSignalSource(
      { ...config, cacheTtlMs: 0, timeoutMs: 1000 },
      { registry: new Registry(), logger, needs },
    );
    await preflight.gather(
      needs,
      preflightWith(() => undefined),
      new Date(),
    );
    expect(
      lines.filter((l) => l.level === 'warn' || l.level === 'error').map((l) => [l.level, l.message, l.sources]),
    ).toEqual([
      ['warn', UNCONFIGURED_SOURCES_WARNING, ['alertmanager "eu"']],
      ['error', UNCONFIGURED_FAIL_OPEN_ERROR, ['alertmanager "us"']],
    ]);
    expect(UNCONFIGURED_FAIL_OPEN_ERROR).toContain('switched off and let every run they judge through unchecked');
  });

  it('the service says so at start-up, once, naming them; their runs are denied saying what to set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'signals-unconfigured-'));
    try {
      writeFileSync(
        join(dir, 'eu.yaml'),
        'kind: Policy\nname: eu-alerts\nrules:\n  - alerts:\n      matchers: \'severity="critical"\'\n      source: eu\n',
      );
      const server = await startServerProcess({ POLICY_DIR: dir, EMERGENCY_STOP_POLICY: 'off' });
      try {
        const res = await fetch(`${server.url}/preflight`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(preflightWith(() => undefined)),
        });
        expect(res.status).toBe(403);
        expect(((await res.json()) as { message: string }).message).toContain(
          'cannot decide: the alerts of alertmanager "eu" could not be read (alertmanager "eu" is not configured (docs/signals.md: ALERTMANAGER_URL or SIGNAL_SOURCES_FILE))',
        );
        const warnings = server
          .output()
          .split('\n')
          .filter((line) => line.includes(UNCONFIGURED_SOURCES_WARNING));
        expect(warnings).toHaveLength(1);
        expect(JSON.parse(warnings[0])).toMatchObject({ level: 'warn', sources: ['alertmanager "eu"'] });
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
