"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.resolveSignalNeeds = resolveSignalNeeds;
const placeholder_text_1 = require("./placeholder-text");
const prom_query_1 = require("./prom-query");
const json_path_text_1 = require("./json-path-text");
const target_runs_1 = require("./target-runs");
/** No target values: for callers that know no payload (every `{{target.*}}` query is then left out). */
const NO_TARGETS = (key) => ({ key, values: [], without: [], withoutCount: 0, unlisted: [] });
/**
 * The needs for one run: each need filled for each of the run's environments, and for each distinct
 * value of the target attributes its `{{target.<key>}}` placeholders read (`valuesOf`; at most
 * MAX_TARGET_VALUES, else none). A need missing a value, or whose query does not compile (the rule
 * refused it at load), is left out: its rule says why.
 */
function resolveSignalNeeds(needs, runs, memo = new Map(), valuesOf = NO_TARGETS) {
    const out = [];
    for (const need of needs) {
        if (need.kind === 'alerts') {
            out.push({ kind: 'alerts', source: need.source });
            continue;
        }
        if (need.kind === 'json') {
            const path = (0, json_path_text_1.parseJsonPath)(need.path);
            if (typeof path === 'string')
                continue;
            for (const run of (0, target_runs_1.targetRuns)(runs, (0, placeholder_text_1.targetKeysOf)(path), valuesOf, false).runs) {
                const filled = (0, json_path_text_1.fillJsonPath)(path, run);
                if ('text' in filled)
                    out.push({ kind: 'json', source: need.source, path: filled.text });
            }
            continue;
        }
        let query = memo.get(need.query);
        if (query === undefined)
            memo.set(need.query, (query = (0, prom_query_1.compilePromQuery)(need.query)));
        if (typeof query === 'string')
            continue;
        for (const run of (0, target_runs_1.targetRuns)(runs, (0, placeholder_text_1.targetKeysOf)(query.text), valuesOf, false).runs) {
            const filled = (0, prom_query_1.resolvePromQuery)(query, run);
            if ('text' in filled)
                out.push({ kind: 'prometheus', source: need.source, query: filled.text });
        }
    }
    return out;
}
//# sourceMappingURL=resolve-signal-needs.js.map