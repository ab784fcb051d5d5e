import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/service/config';
import { parseAuditConfig } from '../../src/observability/audit-config';
import { auditLogTo, createAuditLog } from '../../src/observability/audit-log';
import { capturingLogger } from '../helpers/capturing-logger';
import { preflightWith } from '../helpers/fixtures';
import { waitFor } from '../helpers/server-process';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import { memoryAuditLog } from './audit-sink';

describe('audit settings from the environment', () => {
  it.each([
    [
      'nothing set: stdout, every decision, all target values masked',
      {},
      { destination: { kind: 'stdout' }, level: 'info', redact: { kind: 'all' } },
    ],
    ['AUDIT_LOG=off', { AUDIT_LOG: 'off' }, { destination: { kind: 'off' } }],
    [
      'AUDIT_LOG=<path>',
      { AUDIT_LOG: '/var/log/audit.jsonl' },
      { destination: { kind: 'file', path: '/var/log/audit.jsonl' } },
    ],
    ['AUDIT_LOG_LEVEL=warn', { AUDIT_LOG_LEVEL: 'warn' }, { level: 'warn' }],
    ['AUDIT_REDACT_ATTRIBUTES=false', { AUDIT_REDACT_ATTRIBUTES: 'false' }, { redact: { kind: 'none' } }],
    ['AUDIT_REDACT_ATTRIBUTES=TRUE (any case)', { AUDIT_REDACT_ATTRIBUTES: 'TRUE' }, { redact: { kind: 'all' } }],
    ['AUDIT_REDACT_ATTRIBUTES=False (any case)', { AUDIT_REDACT_ATTRIBUTES: 'False' }, { redact: { kind: 'none' } }],
    [
      'AUDIT_REDACT_ATTRIBUTES=a key list',
      { AUDIT_REDACT_ATTRIBUTES: 'k8s.namespace, host.hostname' },
      { redact: { kind: 'keys', keys: ['k8s.namespace', 'host.hostname'] } },
    ],
  ])('%s', (_name, env, expected) => {
    const result = parseAuditConfig(env);
    expect(result).toMatchObject({ ok: true, config: expected });
  });

  it.each([
    [{ AUDIT_LOG_LEVEL: 'debug' }, 'AUDIT_LOG_LEVEL must be one of info, warn, error, got "debug"'],
    [
      { AUDIT_REDACT_ATTRIBUTES: 'k8s.namespace,,x' },
      'AUDIT_REDACT_ATTRIBUTES must be true, false or a comma-separated list of dotted attribute keys such as k8s.namespace,container.name (no empty entries), got "k8s.namespace,,x"',
    ],
    // A typo of true would otherwise be read as a list of one key and mask almost nothing.
    ...['ture', 'flase', 'yes', '1'].map((value): [NodeJS.ProcessEnv, string] => [
      { AUDIT_REDACT_ATTRIBUTES: value },
      `AUDIT_REDACT_ATTRIBUTES must be true, false or a comma-separated list of dotted attribute keys such as k8s.namespace,container.name (no empty entries), got "${value}"`,
    ]),
  ] as Array<[NodeJS.ProcessEnv, string]>)('%o is refused at start-up with the variable to fix', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message));
  });

  it('an AUDIT_LOG file that cannot be opened stops the start with the path', () => {
    expect(() =>
      createAuditLog({
        destination: { kind: 'file', path: '/nonexistent-dir/audit.log' },
        level: 'info',
        redact: { kind: 'all' },
      }),
    ).toThrow(/AUDIT_LOG: cannot open "\/nonexistent-dir\/audit.log" for appending/);
  });
});

describe('AUDIT_LOG_LEVEL picks which decisions are written', () => {
  const POLICIES = {
    'deny.yaml': 'kind: Policy\nname: no-payments\nrules:\n  - environments:\n      blocked: [payments]\n',
    'warn.yaml':
      'kind: Policy\nname: careful-in-staging\nmode: warn\nrules:\n  - environments:\n      blocked: [staging]\n',
  };
  const runs = ['dev', 'staging', 'payments'].map((environment) =>
    preflightWith((p) => {
      p.execution.environment = environment;
    }),
  );

  it.each([
    ['info', ['allow', 'allow', 'deny', 'error']],
    ['warn', ['allow', 'deny', 'error']],
    ['error', ['error']],
  ] as const)('%s writes %j (clean allow, allow with a warning, deny, error)', async (level, expected) => {
    const sink = memoryAuditLog(level);
    const { app } = testApp(bundleFrom(POLICIES), { audit: sink.audit });
    for (const run of runs) await signedRequest(app, run);
    await signedRequest(app, '{ not json');
    expect(sink.records().map((r) => r.decision)).toEqual(expected);
  });
});

describe('AUDIT_LOG=<file>', () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('appends one JSON line per decision, synchronously', async () => {
    const file = join(dir, 'audit.jsonl');
    const audit = createAuditLog({ destination: { kind: 'file', path: file }, level: 'info', redact: { kind: 'all' } });
    const { app } = testApp(
      bundleFrom({
        'p.yaml': 'kind: Policy\nname: no-payments\nrules:\n  - environments:\n      blocked: [payments]\n',
      }),
      { audit },
    );
    await signedRequest(
      app,
      preflightWith((p) => {
        p.execution.environment = 'payments';
      }),
    ).expect(403);
    await signedRequest(
      app,
      preflightWith((p) => {
        p.execution.environment = 'dev';
      }),
    ).expect(200);
    audit.close();
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { log: string; decision: string });
    expect(lines.map((l) => [l.log, l.decision])).toEqual([
      ['audit', 'deny'],
      ['audit', 'allow'],
    ]);
  });

  it('drops a line recorded after close (the end of a forced shutdown) instead of throwing', async () => {
    const file = join(dir, 'closed.jsonl');
    const audit = createAuditLog({ destination: { kind: 'file', path: file }, level: 'info', redact: { kind: 'all' } });
    // The app catches a throwing audit line and logs it: only the log shows whether the write threw.
    const { logger, lines: logged } = capturingLogger();
    const { app } = testApp(undefined, { audit, logger });
    audit.close();
    await signedRequest(
      app,
      preflightWith(() => undefined),
    ).expect(503);
    expect(() => audit.close()).not.toThrow();
    expect(readFileSync(file, 'utf8')).toBe('');
    const auditFailures = () =>
      logged.filter((l) => l.message === 'the audit line or metrics of an answer could not be written');
    expect(auditFailures()).toEqual([]);
    // The same request with a sink that throws is logged, so the check above can see a throw.
    const throwing = auditLogTo(
      () => {
        throw new Error('EBADF: bad file descriptor, write');
      },
      'info',
      { kind: 'all' },
    );
    await signedRequest(
      testApp(undefined, { audit: throwing, logger }).app,
      preflightWith(() => undefined),
    ).expect(503);
    await waitFor(async () => auditFailures().length > 0, 'the error line of the throwing sink');
    expect(auditFailures()).toEqual([
      expect.objectContaining({ level: 'error', error: 'EBADF: bad file descriptor, write' }),
    ]);
  });
});
