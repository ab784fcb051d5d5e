import type { SourceFile } from '../../src/policy/compile/yaml-source';
import { loadBundle, loadCache, type LoadResult } from '../../src/policy/loading/load-bundle';

const NOW = new Date('2026-03-02T12:00:00Z');

const policy = (name: string, blocked: string): SourceFile => ({
  file: `${name}.yaml`,
  text: `kind: Policy\nname: ${name}\nrules:\n  - environments:\n      blocked: [${blocked}]\n`,
});

const freeze: SourceFile = {
  file: 'freeze.yaml',
  text: `kind: Policy
name: freeze
rules:
  - timeWindow:
      timeZone: UTC
      deny: [{ name: incident freeze, start: "2026-03-02T14:00:00Z", end: "2026-03-02T20:00:00Z" }]
`,
};

const exception: SourceFile = {
  file: 'exception.yaml',
  text: `kind: Exception
name: gameday
policy: a
owner: sre@example.com
reason: game day
requestedBy: alice
approvedBy: bob
expires: "2026-03-03T00:00:00Z"
match:
  experimentKeys: [ADM-1]
`,
};

const settings = (approverNotStarter: boolean): SourceFile => ({
  file: 'settings.yaml',
  text: `kind: ExceptionSettings\nmaxDuration: 7d\napproverNotStarter: ${approverNotStarter}\n`,
});

function bundleOf(result: LoadResult) {
  if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('; '));
  return result.bundle;
}

const checkOf = (result: LoadResult, name: string) =>
  bundleOf(result).policies.find((p) => p.name === name)?.rules[0].check;

describe('a load with the cache of the last one compiles only the files whose text changed', () => {
  test('an unchanged file keeps its compiled rules; a changed one is compiled again', () => {
    const cache = loadCache();
    const first = loadBundle([policy('a', 'production'), policy('b', 'staging')], NOW, { cache });
    const second = loadBundle([policy('a', 'production'), policy('b', 'production-eu')], NOW, { cache });
    expect(checkOf(second, 'a')).toBe(checkOf(first, 'a'));
    expect(checkOf(second, 'b')).not.toBe(checkOf(first, 'b'));
    // Without the cache every file is compiled again.
    expect(checkOf(loadBundle([policy('a', 'production')], NOW), 'a')).not.toBe(checkOf(first, 'a'));
  });

  test('what it gives is what a load without it gives: the bundle, its revision, every warning', () => {
    const cache = loadCache();
    const before = [policy('a', 'production'), policy('b', 'prodution'), freeze];
    loadBundle(before, NOW, { cache });
    const after = [policy('a', 'production'), policy('b', 'prodution'), freeze, policy('c', 'staging')];
    const cached = loadBundle(after, NOW, { cache });
    const fresh = loadBundle(after, NOW);
    expect(bundleOf(cached).revision).toBe(bundleOf(fresh).revision);
    expect(bundleOf(cached).policies.map((p) => [p.name, p.source])).toEqual(
      bundleOf(fresh).policies.map((p) => [p.name, p.source]),
    );
    expect(cached.ok && cached.warnings).toEqual(fresh.ok && fresh.warnings);
    // The typo warning is located, though its file was not parsed again.
    expect(cached.ok && cached.warnings.map((w) => `${w.file}:${w.line}:${w.col} ${w.path}`)).toContain(
      'b.yaml:5:17 rules[0].environments.blocked[0]',
    );
  });

  test('warnings that depend on the time are those of the load, not of the one that compiled the file', () => {
    const cache = loadCache();
    const during = loadBundle([freeze], NOW, { cache });
    const later = loadBundle([freeze], new Date('2026-03-03T00:00:00Z'), { cache });
    expect(during.ok && during.warnings).toEqual([]);
    expect(later.ok && later.warnings.map((w) => `${w.file}:${w.line} ${w.message}`)).toEqual([
      expect.stringMatching(/^freeze\.yaml:6 the deny window .* ended and no longer applies/),
    ]);
  });

  test("the set's settings reach its exceptions without changing the ones kept for the next load", () => {
    const cache = loadCache();
    const strict = bundleOf(loadBundle([policy('a', 'production'), exception, settings(true)], NOW, { cache }));
    const relaxed = bundleOf(loadBundle([policy('a', 'production'), exception, settings(false)], NOW, { cache }));
    expect(strict.exceptions.map((e) => e.approverNotStarter)).toEqual([true]);
    expect(relaxed.exceptions.map((e) => e.approverNotStarter)).toEqual([false]);
  });

  test('the cache keeps no text of a file: a place of a kept file is located in the text of the load that asks', () => {
    const cache = loadCache();
    const files = [policy('a', 'production'), policy('b', 'staging')];
    loadBundle(files, NOW, { cache });
    // Every plain value the cache holds (compiled checks are functions and are not walked).
    const strings: string[] = [];
    const walk = (v: unknown, seen: Set<unknown>) => {
      if (typeof v === 'string') strings.push(v);
      if (typeof v !== 'object' || v === null || seen.has(v)) return;
      seen.add(v);
      for (const x of v instanceof Map ? v.values() : Object.values(v)) walk(x, seen);
    };
    walk(cache.files, new Set());
    expect(strings.filter((s) => files.some((f) => f.text === s))).toEqual([]);
    // A name written again in a new file is told where it was first written, in the kept file.
    const again = loadBundle([...files, { file: 'c.yaml', text: files[0].text }], NOW, { cache });
    expect(!again.ok && again.problems.map((p) => p.message)).toEqual([
      'duplicate policy name "a" (first defined at a.yaml:2)',
    ]);
  });

  test('a file with an error is reported again from the cache, at its line', () => {
    const cache = loadCache();
    const broken = {
      file: 'x.yaml',
      text: 'kind: Policy\nname: x\nrules:\n  - environments:\n      blocked: production\n',
    };
    const once = loadBundle([broken], NOW, { cache });
    const again = loadBundle([broken], NOW, { cache });
    expect(again).toEqual(once);
    expect(!again.ok && again.problems.map((p) => `${p.file}:${p.line}`)).toEqual(['x.yaml:5']);
  });
});
