import { decide } from '../../src/policy/engine/decide';
import { redecide, replayBundle } from '../../src/replay/redecide';
import { ARCHIVE_FORMAT, type ArchiveRecord } from '../../src/archive/archive-record';
import { bundleFrom } from '../helpers/bundle-from';
import { preflightWith } from '../helpers/fixtures';

/**
 * A decision recorded while the service could not count exception uses (in-memory state) did not
 * waive: replay must decide it the same way, not as if the count were 0.
 */
const NOW = new Date('2026-01-05T10:00:00Z');
const BLOCK = 'kind: Policy\nname: no-production\nrules:\n  - environments: { blocked: [production] }\n';
const ONCE =
  'kind: Exception\nname: once\npolicy: no-production\nowner: jane\nreason: game day\nexpires: "2026-01-05T12:00:00Z"\nmaxUses: 1\nmatch: { experimentKeys: [ADM-1] }\n';
const payload = preflightWith((p) => {
  p.execution.environment = 'production';
});

function recorded(state: Record<string, unknown>): ArchiveRecord {
  const bundle = bundleFrom({ 'p.yaml': BLOCK, 'e.yaml': ONCE }, NOW);
  const d = decide(bundle, payload, { state }, NOW, { decisionId: 'd-1' });
  return {
    format: ARCHIVE_FORMAT,
    id: 'd-1',
    at: NOW.toISOString(),
    revision: bundle.revision,
    builtIns: [],
    explain: false,
    payload,
    facts: { state, needs: [...bundle.needs] },
    answer: { status: d.allowed ? 200 : 403, body: {} },
    results: [],
  };
}

describe('replay of a decision whose exception uses could not be counted', () => {
  const proposed = replayBundle(bundleFrom({ 'p.yaml': BLOCK, 'e.yaml': ONCE }, NOW));

  test('stays denied, saying why, as production answered', () => {
    const again = redecide(proposed, recorded({ exceptionUsesUnknown: 'kept in memory only' }));
    expect(again.kind).toBe('decided');
    if (again.kind !== 'decided') return;
    expect(again.answer.status).toBe(403);
    expect((again.answer.body as { message: string }).message).toContain(
      'cannot tell how often exception "once" was used (kept in memory only), so it does not waive',
    );
  });

  test('a record of a set without the exception (no count recorded) replays as no use yet', () => {
    const again = redecide(proposed, recorded({}));
    expect(again.kind === 'decided' && again.answer.status).toBe(200);
  });
});
