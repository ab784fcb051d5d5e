"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.journalHealth = void 0;
exports.journaledExceptionUses = journaledExceptionUses;
const promises_1 = require("node:fs/promises");
const env_values_1 = require("../common/env-values");
const state_store_1 = require("./state-store");
const isUseLine = (v) => {
    const l = v;
    return (typeof l === 'object' &&
        l !== null &&
        typeof l.exception === 'string' &&
        l.exception !== '' &&
        Number.isInteger(l.maxUses) &&
        typeof l.at === 'string' &&
        !Number.isNaN(Date.parse(l.at)));
};
/**
 * The uses the file holds. A last line without its newline was cut by a crash before its use was
 * answered: left out, and `keptBytes` says where the complete lines end.
 */
async function readUses(path) {
    let text;
    try {
        text = await (0, promises_1.readFile)(path, 'utf8');
    }
    catch (err) {
        if (err.code === 'ENOENT')
            return { uses: [] };
        throw new env_values_1.ConfigError(`EXCEPTION_USES_FILE ${path} cannot be read: ${err.message}`);
    }
    const lines = text.split('\n');
    const cut = lines.pop() ?? '';
    const uses = lines.map((raw, i) => {
        let line;
        try {
            line = JSON.parse(raw);
        }
        catch {
            line = undefined;
        }
        // A use that cannot be read might be the one that used the exception up: refuse to start.
        if (!isUseLine(line))
            throw new env_values_1.ConfigError(`EXCEPTION_USES_FILE ${path}:${i + 1} is not a use of an exception ({"exception", "maxUses", "at"}): repair or remove the line`);
        return { name: line.exception, maxUses: line.maxUses };
    });
    if (cut === '')
        return { uses };
    return { uses, cut: { line: cut, keptBytes: Buffer.byteLength(text, 'utf8') - Buffer.byteLength(cut, 'utf8') } };
}
const journalHealth = (path) => `counted in EXCEPTION_USES_FILE ${path}, read again at start-up; for one process only (several replicas need Redis)`;
exports.journalHealth = journalHealth;
/**
 * The in-memory store with its exception uses kept in a file (EXCEPTION_USES_FILE): the uses the
 * file holds are taken again at start-up, and a use taken is appended and synced to disk before
 * the run is answered, so a restart keeps the count (docs/approvals.md). One process writes the
 * file; it is not shared state between replicas.
 */
async function journaledExceptionUses(store, path, now, warn = () => undefined) {
    const { uses, cut } = await readUses(path);
    for (const use of uses)
        await store.takeExceptionUses([use], now);
    if (cut) {
        // Cut off, not ended with a newline: that would make it a complete line that cannot be read,
        // and the next start would refuse.
        await (0, promises_1.truncate)(path, cut.keptBytes).catch((err) => {
            throw new env_values_1.ConfigError(`EXCEPTION_USES_FILE ${path} cannot be truncated after its cut last line: ${err.message}`);
        });
        warn(`EXCEPTION_USES_FILE ${path}: its last line was cut (a crash before that run was answered), so it is removed`, {
            removed: cut.line,
        });
    }
    const file = await (0, promises_1.open)(path, 'a').catch((err) => {
        throw new env_values_1.ConfigError(`EXCEPTION_USES_FILE ${path} cannot be opened for writing: ${err.message}`);
    });
    // One append at a time, each synced before its run is answered.
    let last = Promise.resolve();
    const append = (text) => {
        const done = last.then(async () => {
            await file.appendFile(text);
            await file.datasync();
        });
        last = done.catch(() => undefined);
        return done;
    };
    return {
        kind: store.kind,
        apply: (event, at) => store.apply(event, at),
        read: (query, at) => store.read(query, at),
        async takeExceptionUses(taken, at) {
            const outcome = await store.takeExceptionUses(taken, at);
            if (!outcome.taken)
                return outcome;
            const lines = taken.map((u) => JSON.stringify({
                exception: u.name,
                maxUses: u.maxUses,
                at: at.toISOString(),
            }));
            try {
                await append(`${lines.join('\n')}\n`);
            }
            catch (err) {
                // The count in memory stays taken: one use too many is counted, never one too few.
                throw new state_store_1.StateUnavailableError(`the use could not be written to EXCEPTION_USES_FILE ${path}: ${err.message}`);
            }
            return outcome;
        },
        health: () => ({ ...store.health(), exceptionUses: (0, exports.journalHealth)(path) }),
        async close() {
            await last;
            await file.close();
            await store.close();
        },
    };
}
//# sourceMappingURL=exception-use-journal.js.map