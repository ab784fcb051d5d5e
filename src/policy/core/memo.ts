/**
 * The key of one memo entry, declared by the module that owns what it holds, next to the code that
 * builds it: `const LOCAL_TIMES = memoKey<Map<string, LocalTime>>('local times')`. The memo itself
 * knows no entry, so the core imports none of the modules that keep something in it.
 */
export interface MemoKey<T> {
  /** For a reader and a debugger: what the entry holds. */
  readonly name: string;
  /** Its place in every Memo: keys are numbered as their modules declare them (a handful per process). */
  readonly index: number;
  /** Never set: carries the entry's type to `Memo.get`. */
  readonly value?: T;
}

/**
 * How many keys the process has declared: a key is a module's constant, so this stays small. One
 * counter for every key assumes this module is loaded once (one bundle, no module registry reset);
 * keys of two copies could share an index.
 */
let declared = 0;

export function memoKey<T>(name: string): MemoKey<T> {
  return Object.freeze({ name, index: declared++ });
}

/** What an entry built as `undefined` holds, so it is not built again. */
const BUILT_UNDEFINED = Symbol('built: undefined');

/**
 * What the parts of one decision share, each entry built by the first part that needs it and
 * dropped with the decision's EvaluationContext. Memos of per-request objects live here, not in
 * WeakMaps keyed by the request's objects (docs/decisions/0004-per-evaluation-context.md).
 */
export class Memo {
  /** Entries by key index: read by position, no hashing (docs/decisions/0004-per-evaluation-context.md). */
  private readonly entries: unknown[] = [];

  /** The entry under `key`, built by `build` the first time it is asked for in this decision. */
  get<T>(key: MemoKey<T>, build: () => T): T {
    const kept = this.entries[key.index];
    if (kept !== undefined) return (kept === BUILT_UNDEFINED ? undefined : kept) as T;
    const value = build();
    this.entries[key.index] = value === undefined ? BUILT_UNDEFINED : value;
    return value;
  }

  /** The entry under `key` if a part built it (tests and explanations); never builds it. */
  peek<T>(key: MemoKey<T>): T | undefined {
    const kept = this.entries[key.index];
    return (kept === BUILT_UNDEFINED ? undefined : kept) as T | undefined;
  }
}
