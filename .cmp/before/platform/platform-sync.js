"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PlatformSync = void 0;
const state_event_1 = require("../state/state-event");
const platform_endpoints_1 = require("./platform-endpoints");
const platform_state_events_1 = require("./platform-state-events");
/** Time one sync may take, retries included: well under the sync interval's usual 30 s. */
const SYNC_DEADLINE_MS = 20_000;
/**
 * Keeps the state in line with the platform: at start-up and every interval, the kill switch
 * (`GET /api/killswitch`) and the runs (`POST /api/experiments/executions`: those running, and those
 * ended since the last sync or within the longest cool-down/quota window) enter the state store as
 * events (platform-state-events.ts); the environment list is refreshed every `environmentsRefreshMs`.
 * Webhook events keep applying at once in between. A failed sync is logged and tried again at the
 * next interval: the state keeps what it had.
 */
class PlatformSync {
    deps;
    now;
    state = new Map();
    /** Events this process applied in the previous sync: not sent to the store again. */
    applied = new Set();
    /** The earliest end time the ended-runs search has covered, and when the last one was sent. */
    coveredFromMs;
    lastEndedSearchMs;
    timers = [];
    running;
    constructor(deps) {
        this.deps = deps;
        this.now = deps.now ?? Date.now;
    }
    /** Syncs once now (the start-up sync; it resolves even when the platform is down), then keeps syncing. */
    start() {
        const first = this.syncOnce();
        this.timers.push(setInterval(() => void this.syncOnce(), this.deps.intervalMs).unref());
        this.timers.push(setInterval(() => void this.syncEnvironments(), this.deps.environmentsRefreshMs).unref());
        return first;
    }
    stop() {
        for (const t of this.timers)
            clearInterval(t);
        this.timers = [];
    }
    /** Environments first (the runs' scopes need their ids), then the kill switch and the runs. One at a time. */
    syncOnce() {
        this.running ??= (async () => {
            if (this.state.get('environments')?.atMs === undefined)
                await this.syncEnvironments();
            await this.syncKillswitch();
            await this.syncExecutions();
        })().finally(() => {
            this.running = undefined;
        });
        return this.running;
    }
    /** Whether the platform's kill switch has been read since start-up. */
    killswitchConfirmed() {
        return this.state.get('killswitch')?.atMs !== undefined;
    }
    status() {
        const one = (name) => {
            const s = this.state.get(name) ?? {};
            return {
                ...(s.atMs === undefined
                    ? {}
                    : { syncedAt: new Date(s.atMs).toISOString(), ageSeconds: Math.round((this.now() - s.atMs) / 1000) }),
                ...(s.lastError ? { lastError: s.lastError } : {}),
            };
        };
        return { environments: one('environments'), killswitch: one('killswitch'), executions: one('executions') };
    }
    succeeded(name, atMs) {
        this.state.set(name, { atMs });
        this.deps.metrics?.synced(name, atMs);
    }
    failed(name, message) {
        const s = this.state.get(name) ?? {};
        if (s.lastError !== message)
            this.deps.logger.warn(`Steadybit Platform API: ${name} sync failed; keeping what the state has`, {
                sync: name,
                error: message,
            });
        this.state.set(name, { ...s, lastError: message });
    }
    async syncEnvironments() {
        const res = await this.deps.directory.refresh();
        if (res.ok)
            this.succeeded('environments', this.now());
        else
            this.failed('environments', res.failure.message);
    }
    async syncKillswitch() {
        const sentAt = this.now();
        const res = await (0, platform_endpoints_1.getKillswitch)(this.deps.client, sentAt + SYNC_DEADLINE_MS);
        if (!res.ok)
            return this.failed('killswitch', res.failure.message);
        try {
            // "Not engaged" ends the engagement the store holds now (if any): read it first.
            const held = res.value.active
                ? undefined
                : (await this.deps.store.read({ emergencyStop: true, running: false, scopes: [] }, new Date(this.now())))
                    .emergencyStop;
            if (held?.engaged && held.since === undefined)
                this.deps.logger.warn('the state holds an engaged emergency stop without its time; the Platform API answer "not engaged" cannot end it, an event must');
            const outcome = await this.deps.store.apply((0, platform_state_events_1.killswitchEventFromApi)(res.value, sentAt, held?.engaged ? held.since : undefined), new Date(this.now()));
            if (outcome === 'applied')
                this.deps.logger.info('emergency stop set from the Steadybit Platform API', {
                    engaged: res.value.active,
                    engagedAt: res.value.engaged,
                });
            this.succeeded('killswitch', sentAt);
        }
        catch (err) {
            this.failed('killswitch', `the state store refused the kill switch: ${err instanceof Error ? err.message : String(err)}`);
        }
    }
    async syncExecutions() {
        const sentAt = this.now();
        const deadline = sentAt + SYNC_DEADLINE_MS;
        const running = await (0, platform_endpoints_1.searchExecutions)(this.deps.client, { states: [...platform_state_events_1.RUNNING_STATES] }, deadline);
        if (!running.ok)
            return this.failed('executions', `running runs: ${running.failure.message}`);
        // Ended runs free capacity (a lost `completed` event) and feed cool-downs and quotas.
        const want = sentAt - Math.max(this.deps.historyMs(), 2 * this.deps.intervalMs);
        // The whole window the first time (or when a reload made it longer), else since the last search (with overlap).
        const fromMs = this.coveredFromMs === undefined || want < this.coveredFromMs || this.lastEndedSearchMs === undefined
            ? want
            : Math.max(want, this.lastEndedSearchMs - 2 * this.deps.intervalMs);
        const ended = await (0, platform_endpoints_1.searchExecutions)(this.deps.client, { states: [...state_event_1.END_STATES], endedFrom: new Date(fromMs).toISOString() }, deadline);
        if (!ended.ok)
            return this.failed('executions', `ended runs: ${ended.failure.message}`);
        const idsOf = (name) => this.deps.directory.idsOf(name);
        const events = [...running.value, ...ended.value].flatMap((item) => (0, platform_state_events_1.executionEventsFromApi)(item, idsOf));
        const applied = new Set();
        try {
            for (const event of events) {
                applied.add(event.dedupeKey);
                if (!this.applied.has(event.dedupeKey))
                    await this.deps.store.apply(event, new Date(this.now()));
            }
        }
        catch (err) {
            return this.failed('executions', `the state store refused a run: ${err instanceof Error ? err.message : String(err)}`);
        }
        this.applied = applied;
        this.coveredFromMs = Math.min(this.coveredFromMs ?? fromMs, fromMs);
        this.lastEndedSearchMs = sentAt;
        this.succeeded('executions', sentAt);
    }
}
exports.PlatformSync = PlatformSync;
//# sourceMappingURL=platform-sync.js.map