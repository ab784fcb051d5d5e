"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EnvironmentDirectory = void 0;
const platform_endpoints_1 = require("./platform-endpoints");
/** Read-time budget of one refresh: longer than a preflight waits, so a slow answer still fills the cache. */
const REFRESH_DEADLINE_MS = 30_000;
/**
 * The id-to-name map of `GET /api/environments`, cached. Refreshed periodically (platform-sync.ts)
 * and when a payload names an id not seen before; one request in flight at a time, and every
 * caller waiting for it shares its answer. A preflight waits at most `waitMs` for it.
 */
class EnvironmentDirectory {
    client;
    timing;
    metrics;
    now;
    byId = new Map();
    byName = new Map();
    fetchedAtMs;
    lastError;
    inFlight;
    lastStartMs = -Infinity;
    constructor(client, timing, metrics, now = Date.now) {
        this.client = client;
        this.timing = timing;
        this.metrics = metrics;
        this.now = now;
    }
    /** Reads the list now, or joins the read in flight. */
    refresh() {
        if (this.inFlight)
            return this.inFlight;
        this.lastStartMs = this.now();
        const run = async () => {
            const res = await (0, platform_endpoints_1.getEnvironments)(this.client, this.now() + REFRESH_DEADLINE_MS);
            if (res.ok) {
                this.byId = new Map(res.value.map((e) => [e.id.toLowerCase(), e.name]));
                this.byName = new Map(res.value.map((e) => [e.name.toLowerCase(), e.name]));
                this.fetchedAtMs = this.now();
                this.lastError = undefined;
                this.metrics?.synced('environments', this.fetchedAtMs);
            }
            else {
                this.lastError = res.failure.message;
            }
            return res;
        };
        this.inFlight = run().finally(() => {
            this.inFlight = undefined;
        });
        return this.inFlight;
    }
    /**
     * The names of a run's environment values (ids, or names as some payloads send them). An id
     * not in the cache, or a cache older than the maximum age, starts a refresh (or joins one) and
     * waits for it at most `waitMs`; then the answer is what is known.
     */
    async resolve(values) {
        const missing = values.some((v) => this.lookup(v) === undefined) || !this.fresh();
        if (missing && (this.inFlight || this.now() - this.lastStartMs >= this.timing.minGapMs)) {
            await Promise.race([this.refresh(), new Promise((r) => setTimeout(r, this.timing.waitMs).unref())]);
        }
        return new Map(values.map((v) => [v, this.nameOf(v)]));
    }
    fresh() {
        return this.fetchedAtMs !== undefined && this.now() - this.fetchedAtMs <= this.timing.maxAgeMs;
    }
    lookup(value) {
        const key = value.toLowerCase();
        return this.byId.get(key) ?? this.byName.get(key);
    }
    nameOf(value) {
        if (this.fetchedAtMs === undefined) {
            return {
                known: false,
                reason: `the Steadybit Platform API has not answered yet (${this.lastError ?? 'no answer so far'}), so the name of environment ${value} is unknown`,
            };
        }
        if (!this.fresh()) {
            const age = Math.round((this.now() - this.fetchedAtMs) / 1000);
            return {
                known: false,
                reason: `the environment names were last read from the Steadybit Platform API ${age} s ago, longer than STEADYBIT_ENVIRONMENT_NAME_MAX_AGE_SECONDS (${this.timing.maxAgeMs / 1000} s)${this.lastError ? `; last error: ${this.lastError}` : ''}`,
            };
        }
        const name = this.lookup(value);
        if (name !== undefined)
            return { known: true, name };
        const failed = this.lastError ? `; reading the list again failed: ${this.lastError}` : '';
        return {
            known: false,
            reason: `environment ${value} is not one of the ${this.byId.size} environments the Steadybit Platform API lists (read ${new Date(this.fetchedAtMs).toISOString()})${failed}`,
        };
    }
    /** The ids the platform lists under a name (lower-cased), e.g. to count a run the search names by its environment's name. */
    idsOf(name) {
        const lower = name.toLowerCase();
        return [...this.byId].filter(([, n]) => n.toLowerCase() === lower).map(([id]) => id);
    }
    /** Every environment name as cached (doctor, tests). */
    names() {
        return [...this.byName.values()];
    }
    status() {
        const at = this.fetchedAtMs;
        return {
            environments: this.byId.size,
            ...(at === undefined
                ? {}
                : { fetchedAt: new Date(at).toISOString(), ageSeconds: Math.round((this.now() - at) / 1000) }),
            ...(this.lastError ? { lastError: this.lastError } : {}),
        };
    }
}
exports.EnvironmentDirectory = EnvironmentDirectory;
//# sourceMappingURL=environment-directory.js.map