import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { settleExceptionUses } from '../../src/approvals/settle-exception-uses';
import { decide } from '../../src/policy/engine/decide';
import type { Facts } from '../../src/policy/facts/facts';
import { journaledExceptionUses } from '../../src/state/exception-use-journal';
import { MemoryStateStore } from '../../src/state/memory-state-store';
import type { StateStore } from '../../src/state/state-store';
import { preflightWith } from '../helpers/fixtures';
import { bundleFrom } from '../helpers/bundle-from';
import { TIMING } from '../state/store-table';

/**
 * A used-up exception stays used up when its `expires` is extended later, however much later: a
 * count is never dropped (ExceptionUse). The clock is injected: each step passes its own time.
 */
const USED_AT = new Date('2026-01-05T10:00:00Z');
const DAY_MS = 86_400_000;
/** Three days after the use: past the exception's first expiry and any day of grace after it. */
const LATER = new Date(USED_AT.getTime() + 3 * DAY_MS);
const POLICY = 'kind: Policy\nname: no-production\nrules:\n  - environments: { blocked: [production] }\n';
const exception = (expires: string) =>
  `kind: Exception\nname: once\npolicy: no-production\nowner: jane\nreason: game day\nexpires: "${expires}"\nmaxUses: 1\nmatch: { experimentKeys: [ADM-1] }\n`;
const first = bundleFrom({ 'p.yaml': POLICY, 'e.yaml': exception('2026-01-05T12:00:00Z') }, USED_AT);
/** The same exception with `expires` edited to a month later. */
const extended = bundleFrom({ 'p.yaml': POLICY, 'e.yaml': exception('2026-02-05T12:00:00Z') }, LATER);
const payload = preflightWith((p) => {
  p.execution.environment = 'production';
});
const query = { emergencyStop: false, running: false, scopes: [], exceptionUses: ['once'] };

/** Decides as the service does: reads the count, decides, takes the use. */
async function run(store: StateStore, bundle: typeof first, now: Date) {
  const facts: Facts = { state: await store.read(query, now) };
  const redecide = (f: Facts) => decide(bundle, payload, f, now, { decisionId: 'd' });
  const settled = await settleExceptionUses({ decision: redecide(facts), facts }, bundle, now, redecide, (u, at) =>
    store.takeExceptionUses(u, at),
  );
  return settled.decision;
}

describe('a used-up exception whose expires is extended stays used up', () => {
  test('in memory', async () => {
    const store = new MemoryStateStore(TIMING);
    expect((await run(store, first, USED_AT)).allowed).toBe(true);
    const again = await run(store, extended, LATER);
    expect(again.allowed).toBe(false);
    expect(again.message).toContain('exception "once" is used up (1 of 1 run waived)');
  });

  describe('with EXCEPTION_USES_FILE, across a restart', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'pg-uses-kept-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    test('the restart reads the count back, whatever the time', async () => {
      const file = join(dir, 'uses.jsonl');
      const before = await journaledExceptionUses(new MemoryStateStore(TIMING), file, USED_AT);
      expect((await run(before, first, USED_AT)).allowed).toBe(true);
      await before.close();
      const after = await journaledExceptionUses(new MemoryStateStore(TIMING), file, LATER);
      const again = await run(after, extended, LATER);
      expect(again.allowed).toBe(false);
      expect(again.message).toContain('exception "once" is used up (1 of 1 run waived)');
      await after.close();
    });

    test('a line an earlier version wrote (with keepUntil) still counts, its keepUntil ignored', async () => {
      const file = join(dir, 'uses.jsonl');
      writeFileSync(
        file,
        '{"exception":"once","maxUses":1,"keepUntil":"2026-01-06T12:00:00.000Z","at":"2026-01-05T10:00:00.000Z"}\n',
      );
      const store = await journaledExceptionUses(new MemoryStateStore(TIMING), file, LATER);
      expect((await store.read(query, LATER)).exceptionUses).toEqual({ once: 1 });
      await store.close();
    });
  });
});

describe('EXCEPTION_USES_FILE whose last line a crash cut', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pg-uses-cut-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('the cut line is removed (and the log says so), so the next restarts start and count right', async () => {
    const file = join(dir, 'uses.jsonl');
    writeFileSync(file, '{"exception":"x","max');
    const warnings: string[] = [];
    const warn = (message: string, fields: Record<string, unknown>) => warnings.push(`${message} ${fields.removed}`);
    const started = await journaledExceptionUses(new MemoryStateStore(TIMING), file, USED_AT, warn);
    expect(warnings).toEqual([
      `EXCEPTION_USES_FILE ${file}: its last line was cut (a crash before that run was answered), so it is removed {"exception":"x","max`,
    ]);
    expect((await started.read(query, USED_AT)).exceptionUses).toEqual({});
    expect((await run(started, first, USED_AT)).allowed).toBe(true);
    await started.close();
    expect(readFileSync(file, 'utf8')).toMatch(
      /^\{"exception":"once","maxUses":1,"at":"2026-01-05T10:00:00.000Z"\}\n$/,
    );
    const restarted = await journaledExceptionUses(new MemoryStateStore(TIMING), file, LATER, warn);
    expect(warnings).toHaveLength(1);
    expect((await restarted.read(query, LATER)).exceptionUses).toEqual({ once: 1 });
    await restarted.close();
  });

  test('complete lines before the cut one are kept', async () => {
    const file = join(dir, 'uses.jsonl');
    const line = '{"exception":"once","maxUses":1,"at":"2026-01-05T10:00:00.000Z"}\n';
    writeFileSync(file, `${line}{"exception":"once","maxU`);
    const store = await journaledExceptionUses(new MemoryStateStore(TIMING), file, LATER);
    expect((await store.read(query, LATER)).exceptionUses).toEqual({ once: 1 });
    await store.close();
    expect(readFileSync(file, 'utf8')).toBe(line);
  });
});
