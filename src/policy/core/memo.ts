/**
 * The key of one memo entry, declared by the module that owns what it holds, next to the code that
 * builds it: `const LOCAL_TIMES = memoKey<Map<string, LocalTime>>('local times')`. The memo itself
 * knows no entry, so the core imports none of the modules that keep something in it.
 */
export interface MemoKey<T> {
  /** For a reader and a debugger: what the entry holds. */
  readonly name: string;
  /** Never set: carries the entry's type to `Memo.get`. */
  readonly value?: T;
}

export function memoKey<T>(name: string): MemoKey<T> {
  return Object.freeze({ name });
}

/**
 * What the parts of one decision share, each entry built by the first part that needs it and
 * dropped with the decision's EvaluationContext. Memos of per-request objects live here, not in
 * WeakMaps keyed by the request's objects (docs/decisions/0004-per-evaluation-context.md).
 */
export class Memo {
  private readonly entries = new Map<MemoKey<unknown>, unknown>();

  /** The entry under `key`, built by `build` the first time it is asked for in this decision. */
  get<T>(key: MemoKey<T>, build: () => T): T {
    // One lookup for an entry already built (has() only for an entry that is undefined).
    const kept = this.entries.get(key);
    if (kept !== undefined || this.entries.has(key)) return kept as T;
    const value = build();
    this.entries.set(key, value);
    return value;
  }

  /** The entry under `key` if a part built it (tests and explanations); never builds it. */
  peek<T>(key: MemoKey<T>): T | undefined {
    return this.entries.get(key) as T | undefined;
  }
}
