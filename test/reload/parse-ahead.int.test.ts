import { hash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SourceFile } from '../../src/policy/compile/yaml-source';
import { decide } from '../../src/policy/engine/decide';
import { loadBundle, loadCache, type LoadCache, type LoadResult } from '../../src/policy/loading/load-bundle';
import { readPolicyDir } from '../../src/policy/loading/read-policy-dir';
import { parseAhead } from '../../src/policy/runtime/parse-ahead';
import { DECISION_TIMES, decisionPayloads } from '../helpers/decision-cases';
import { freshFacts } from '../helpers/policy-sets/fresh-facts';
import { generatePolicySet } from '../helpers/policy-sets/generate-policies';
import { usableRuleKinds } from '../helpers/policy-sets/usable-rule-kinds';
import { ROOT } from '../helpers/server-process';

// Start-up on two threads (docs/decisions/0043): the worker thread of the build (dist/) parses and
// checks the schemas ahead, this thread compiles into the load's cache; the load that follows must
// give exactly the set, the warnings and the problems a load without it gives.
const SCRIPT = join(ROOT, 'dist', 'policy', 'runtime', 'parse-ahead-worker.js');
const NOW = new Date(DECISION_TIMES[0]);
const digest = (text: string) => hash('sha256', text, 'hex');

/** Files the worker leaves to the load: not in the plain shape, or with a problem to locate. */
const NOT_PLAIN = {
  file: 'described.yaml',
  text: 'kind: Policy\nname: described\ndescription: |\n  Two lines\n  of text.\nrules:\n  - environments:\n      blocked: [prod]\n',
};
const TYPO_WARNING = {
  file: 'typo.yaml',
  text: 'kind: Policy\nname: typo\nmatch:\n  environments: [produciton]\nrules:\n  - environments:\n      blocked: [production]\n',
};
const SCHEMA_ERROR = {
  file: 'schema-error.yaml',
  text: 'kind: Policy\nname: schema-error\nrules:\n  - environments:\n      blocked: prod\n',
};
/** Compiles as if it were valid: only its schema says the key is unknown. */
const UNKNOWN_KEY = {
  file: 'unknown-key.yaml',
  text: 'kind: Policy\nname: unknown-key\nrules:\n  - environments:\n      blocked: [prod]\n      colour: red\n',
};
const COMPILE_ERROR = {
  file: 'compile-error.yaml',
  text: 'kind: Policy\nname: compile-error\nrules:\n  - timeWindow:\n      timeZone: Europe/Berlin\n      allow: [{ days: [Mon], from: "25:00", to: "18:00" }]\n',
};

function writeSet(extra: ReadonlyArray<{ file: string; text: string }>): string {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-parse-ahead-'));
  for (const f of [...generatePolicySet(400, usableRuleKinds().usable), ...extra])
    writeFileSync(join(dir, f.file), f.text);
  return dir;
}

async function loadedBoth(
  dir: string,
  ownChunks = false,
): Promise<{
  ahead: LoadResult;
  alone: LoadResult;
  cache: LoadCache;
  byWorker: number;
  kept: Map<string, unknown>;
  sources: SourceFile[];
}> {
  const sources = readPolicyDir(dir);
  const cache = loadCache(digest);
  const result = await parseAhead(
    sources.map((s) => s.file),
    cache,
    { minFiles: 1, script: SCRIPT, ownChunks },
  );
  const kept = new Map(cache.files);
  const ahead = loadBundle(sources, NOW, { cache });
  const alone = loadBundle(sources, NOW);
  return { ahead, alone, cache, byWorker: result.byWorker, kept, sources };
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

(existsSync(SCRIPT) ? describe : describe.skip)('files parsed ahead on a worker thread', () => {
  it('load the set a load alone gives: same revision, warnings and decisions, the files taken from the cache', async () => {
    const dir = writeSet([NOT_PLAIN, TYPO_WARNING]);
    dirs.push(dir);
    const { ahead, alone, cache, byWorker, kept, sources } = await loadedBoth(dir);
    if (!ahead.ok || !alone.ok) throw new Error('the set does not load');
    // The worker parsed the generated files; the one not in the plain shape was left to the load.
    expect(byWorker).toBeGreaterThanOrEqual(400);
    expect(kept.has(join(dir, NOT_PLAIN.file))).toBe(false);
    // Each file compiled ahead was the load's (the same object: not compiled again).
    for (const [file, loaded] of kept) expect(cache.files.get(file)).toBe(loaded);
    expect(cache.files.size).toBe(sources.length);
    expect(ahead.bundle.revision).toBe(alone.bundle.revision);
    expect(ahead.warnings).toEqual(alone.warnings);
    expect(ahead.warnings.some((w) => w.file.endsWith(TYPO_WARNING.file))).toBe(true);
    expect(ahead.bundle.policies.map((p) => p.name)).toEqual(alone.bundle.policies.map((p) => p.name));
    const payloads = decisionPayloads();
    const facts = await freshFacts(alone.bundle, payloads, NOW);
    const decisions = (result: typeof ahead) =>
      payloads.map((p, i) =>
        JSON.stringify(decide(result.bundle, p.payload, facts[i], NOW, { decisionId: 'same', fullScan: true })),
      );
    expect(decisions(ahead)).toEqual(decisions(alone));
  });

  it('leave every file with a problem to the load, which reports each where it is written', async () => {
    const dir = writeSet([SCHEMA_ERROR, COMPILE_ERROR, UNKNOWN_KEY]);
    dirs.push(dir);
    const { ahead, alone, kept } = await loadedBoth(dir);
    expect(kept.has(join(dir, SCHEMA_ERROR.file))).toBe(false);
    expect(kept.has(join(dir, UNKNOWN_KEY.file))).toBe(false);
    expect(kept.has(join(dir, COMPILE_ERROR.file))).toBe(false);
    if (ahead.ok || alone.ok) throw new Error('a set with errors loaded');
    expect(ahead.problems).toEqual(alone.problems);
    expect(ahead.problems.map((p) => [p.file.replace(`${dir}/`, ''), p.line])).toEqual([
      [COMPILE_ERROR.file, 6],
      [SCHEMA_ERROR.file, 5],
      [UNKNOWN_KEY.file, 6],
    ]);
  });

  it('with this thread loading chunks too while the worker starts: the same problems', async () => {
    const dir = writeSet([SCHEMA_ERROR, COMPILE_ERROR, UNKNOWN_KEY, TYPO_WARNING]);
    dirs.push(dir);
    const { ahead, alone } = await loadedBoth(dir, true);
    expect(ahead).toEqual(alone);
  });

  it('are taken by the load only while their text is the same', async () => {
    const dir = writeSet([]);
    dirs.push(dir);
    const sources = readPolicyDir(dir);
    const cache = loadCache(digest);
    await parseAhead(
      sources.map((s) => s.file),
      cache,
      { minFiles: 1, script: SCRIPT, ownChunks: false },
    );
    // A file changed once parsed: the load reads its new text and judges that.
    const changed = sources.map((s, i) =>
      i === 3 ? { ...s, text: SCHEMA_ERROR.text.replace('schema-error', 'x') } : s,
    );
    const loaded = loadBundle(changed, NOW, { cache });
    expect(loaded.ok).toBe(false);
    expect(loaded.ok ? [] : loaded.problems.map((p) => p.file)).toEqual([sources[3].file]);
  });
});
