import type { Claim, GuardedRun, GuardStore } from './guard-store';

interface Lease {
  owner: string;
  untilMs: number;
  stopped: boolean;
}

/** The guarded runs of one replica, in this process (lost on restart, like the rest of its state). */
export class MemoryGuardStore implements GuardStore {
  private readonly kept = new Map<string, { run: GuardedRun; expiresMs: number }>();
  private readonly leases = new Map<string, Lease>();

  constructor(private readonly now: () => number = Date.now) {}

  async keep(run: GuardedRun, expiresMs: number, _nowMs?: number): Promise<void> {
    this.kept.set(run.executionId, { run, expiresMs });
  }

  async runs(nowMs: number): Promise<GuardedRun[]> {
    const out: GuardedRun[] = [];
    for (const [id, entry] of this.kept) {
      if (entry.expiresMs <= nowMs) this.kept.delete(id);
      else out.push(entry.run);
    }
    return out.sort((a, b) => a.allowedAt.localeCompare(b.allowedAt));
  }

  async ids(nowMs: number): Promise<string[]> {
    const out: string[] = [];
    for (const [id, entry] of this.kept) if (entry.expiresMs > nowMs) out.push(id);
    return out;
  }

  async fetch(executionIds: readonly string[]): Promise<GuardedRun[]> {
    const out: GuardedRun[] = [];
    for (const id of executionIds) {
      const entry = this.kept.get(id);
      if (entry) out.push(entry.run);
    }
    return out;
  }

  async has(executionId: string, nowMs: number): Promise<boolean> {
    const entry = this.kept.get(executionId);
    return entry !== undefined && entry.expiresMs > nowMs;
  }

  async forget(executionId: string): Promise<void> {
    this.kept.delete(executionId);
  }

  async claim(executionId: string, owner: string, leaseMs: number): Promise<Claim> {
    const nowMs = this.now();
    const lease = this.leases.get(executionId);
    if (lease && lease.untilMs > nowMs) return lease.stopped ? 'stopped' : 'held';
    this.leases.set(executionId, { owner, untilMs: nowMs + leaseMs, stopped: false });
    this.pruneLeases(nowMs);
    return 'claimed';
  }

  async release(executionId: string, owner: string): Promise<void> {
    if (this.leases.get(executionId)?.owner === owner) this.leases.delete(executionId);
  }

  async stopped(executionId: string, owner: string, keepMs: number): Promise<void> {
    this.leases.set(executionId, { owner, untilMs: this.now() + keepMs, stopped: true });
  }

  private pruneLeases(nowMs: number): void {
    for (const [id, lease] of this.leases) if (lease.untilMs <= nowMs) this.leases.delete(id);
  }
}
