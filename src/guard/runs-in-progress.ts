import type { PreflightPayload } from '../payload/types';
import { runFootprint } from '../policy/facts/run-footprint';
import type { InProgressFacts, InProgressRun } from '../policy/facts/state-facts';
import type { GuardedRun, GuardStore } from './guard-store';

/** What is indexed of a kept run: who runs it and what its targets occupy (never its payload). */
interface Entry {
  run: InProgressRun;
  targets: string[];
  attributes: [key: string, value: string][];
}

const addTo = <K>(index: Map<K, Set<string>>, key: K, id: string) => {
  const ids = index.get(key);
  if (ids === undefined) index.set(key, new Set([id]));
  else ids.add(id);
};

const removeFrom = <K>(index: Map<K, Set<string>> | undefined, key: K, id: string) => {
  const ids = index?.get(key);
  ids?.delete(id);
  if (ids?.size === 0) index?.delete(key);
};

/**
 * The runs in progress as the overlap rules read them (noOverlap, Facts.state.inProgress): the
 * guard's store of allowed runs (in this process, or in Redis shared by every replica), indexed by
 * target and attribute value in this process. A preflight reads only the list of ids in progress
 * (one cheap read); a run's payload is read once, when its id first shows up, and its entry leaves
 * when its id does (end event, Platform API, EXECUTION_TTL_SECONDS). So 1,000 runs of 100 targets
 * each cost a preflight one id list and a lookup per target it has, not 100,000 values.
 */
export class RunsInProgress {
  private readonly entries = new Map<string, Entry>();
  private readonly byTarget = new Map<string, Set<string>>();
  private readonly byAttribute = new Map<string, Map<string, Set<string>>>();
  /** The attribute keys the entries were read for: a key asked for the first time reads every run again. */
  private keys = new Set<string>();
  /** Index updates, one at a time (each awaits the store). */
  private updating: Promise<void> = Promise.resolve();

  constructor(private readonly store: GuardStore) {}

  /**
   * The runs in progress at `nowMs` sharing a target, or a value of one of `attributes`, with this
   * run (the run itself included when it is kept already: the rule leaves it out). Throws as the
   * store does (StateUnavailableError).
   */
  async sharing(payload: PreflightPayload, attributes: readonly string[], nowMs: number): Promise<InProgressFacts> {
    const ids = await this.store.ids(nowMs);
    const update = this.updating.then(() => this.update(ids, attributes));
    this.updating = update.catch(() => undefined);
    await update;
    const live = new Set(ids);
    const facts: InProgressFacts = { runs: {}, targets: {}, attributes: {} };
    const found = (ids: ReadonlySet<string> | undefined): string[] => {
      const out: string[] = [];
      for (const id of ids ?? []) {
        const entry = live.has(id) ? this.entries.get(id) : undefined;
        if (entry === undefined) continue;
        out.push(id);
        facts.runs[id] = entry.run;
      }
      return out;
    };
    const footprint = runFootprint(payload.execution?.steps, attributes);
    for (const target of footprint.targets) {
      const ids = found(this.byTarget.get(target));
      if (ids.length > 0) facts.targets[target] = ids;
    }
    for (const [key, values] of footprint.attributes) {
      const index = this.byAttribute.get(key);
      for (const value of values) {
        const ids = found(index?.get(value));
        if (ids.length > 0) (facts.attributes[key] ??= {})[value] = ids;
      }
    }
    return facts;
  }

  /** The index becomes the runs of `ids`: entries of ids gone leave, new ids are read from the store. */
  private async update(ids: readonly string[], attributes: readonly string[]): Promise<void> {
    if (attributes.some((key) => !this.keys.has(key))) {
      this.keys = new Set([...this.keys, ...attributes]);
      for (const id of [...this.entries.keys()]) this.remove(id);
    }
    const live = new Set(ids);
    for (const id of [...this.entries.keys()]) if (!live.has(id)) this.remove(id);
    const unread = ids.filter((id) => !this.entries.has(id));
    if (unread.length === 0) return;
    for (const run of await this.store.fetch(unread)) this.add(run);
  }

  private add(kept: GuardedRun): void {
    const id = kept.executionId;
    if (this.entries.has(id)) return;
    const execution = kept.payload.execution;
    const footprint = runFootprint(execution?.steps, [...this.keys]);
    const entry: Entry = {
      run: {
        ...(execution?.experimentKey ? { experimentKey: execution.experimentKey } : {}),
        ...(execution?.teamKey ? { team: execution.teamKey } : {}),
        since: kept.allowedAt,
      },
      targets: [...footprint.targets],
      attributes: [...footprint.attributes].flatMap(([key, values]) =>
        [...values].map((v): [string, string] => [key, v]),
      ),
    };
    this.entries.set(id, entry);
    for (const target of entry.targets) addTo(this.byTarget, target, id);
    for (const [key, value] of entry.attributes) {
      let index = this.byAttribute.get(key);
      if (index === undefined) this.byAttribute.set(key, (index = new Map()));
      addTo(index, value, id);
    }
  }

  private remove(id: string): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    this.entries.delete(id);
    for (const target of entry.targets) removeFrom(this.byTarget, target, id);
    for (const [key, value] of entry.attributes) {
      removeFrom(this.byAttribute.get(key), value, id);
      if (this.byAttribute.get(key)?.size === 0) this.byAttribute.delete(key);
    }
  }
}
