import type { Claim, GuardedRun, GuardStore } from './guard-store';
import type { SilentSignal } from '../policy/facts/signal-facts';
import { mergeSilences, silentSignalOf } from './silent-signals';

interface Lease {
  owner: string;
  untilMs: number;
  stopped: boolean;
}

/** The guarded runs of one replica, in this process (lost on restart, like the rest of its state). */
export class MemoryGuardStore implements GuardStore {
  private readonly kept = new Map<string, { run: GuardedRun; expiresMs: number }>();
  private readonly leases = new Map<string, Lease>();
  private readonly silent = new Map<string, Map<string, string>>();

  private overlapLock: { token: string; untilMs: number } | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  async keep(run: GuardedRun, expiresMs: number, _nowMs?: number): Promise<void> {
    this.kept.set(run.executionId, { run, expiresMs });
  }

  async lockOverlap(token: string, lockMs: number): Promise<boolean> {
    if (this.overlapLock && this.overlapLock.untilMs > this.now()) return false;
    this.overlapLock = { token, untilMs: this.now() + lockMs };
    return true;
  }

  async keepLocked(run: GuardedRun, expiresMs: number, nowMs: number, token: string): Promise<boolean> {
    if (this.overlapLock?.token !== token || this.overlapLock.untilMs <= this.now()) return false;
    await this.keep(run, expiresMs, nowMs);
    return true;
  }

  async unlockOverlap(token: string): Promise<void> {
    if (this.overlapLock?.token === token) this.overlapLock = undefined;
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
    this.silent.delete(executionId);
  }

  async silences(executionId: string): Promise<SilentSignal[]> {
    return [...(this.silent.get(executionId) ?? new Map<string, string>())].map(([f, since]) =>
      silentSignalOf(f, since),
    );
  }

  async silenced(
    executionId: string,
    silent: readonly SilentSignal[],
    _expiresMs?: number,
    _nowMs?: number,
  ): Promise<SilentSignal[]> {
    const next = mergeSilences(this.silent.get(executionId) ?? new Map(), silent);
    if (next.size === 0) this.silent.delete(executionId);
    else this.silent.set(executionId, next);
    // Runs that expired without an end event take their silences with them.
    for (const id of this.silent.keys()) if (!this.kept.has(id)) this.silent.delete(id);
    return this.silences(executionId);
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
