"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.UNCONFIGURED_FAIL_OPEN_ERROR = exports.UNCONFIGURED_SOURCES_WARNING = void 0;
exports.unconfiguredSources = unconfiguredSources;
const signal_source_1 = require("./signal-source");
const source_kind_1 = require("../policy/signals/source-kind");
/**
 * The sources that signal needs name but the deployment does not configure, as messages name them
 * (`alertmanager "eu"`), each once, for the rules with that `onUnavailable` (absent: deny). Such a
 * rule cannot decide: with `deny` every run it judges is denied; with `allow` every run it judges
 * is let through unchecked, the guardrail is off. The service says so when it starts and when a
 * policy set first asks for one (docs/signals.md).
 */
function unconfiguredSources(needs, config, onUnavailable = 'deny') {
    const out = new Set();
    for (const need of needs) {
        if (need.kind !== 'alerts' && need.kind !== 'prometheus' && need.kind !== 'json')
            continue;
        if ((need.onUnavailable ?? 'deny') !== onUnavailable)
            continue;
        const kind = need.kind === 'alerts' ? 'alertmanager' : need.kind;
        if (!(0, signal_source_1.findSource)(config, kind, need.source))
            out.add((0, source_kind_1.sourceText)(kind, need.source));
    }
    return [...out];
}
/** Said in the log (warn) for rules that deny when their source cannot answer: what to set. */
exports.UNCONFIGURED_SOURCES_WARNING = 'policies ask signal sources this deployment does not configure: their rules cannot decide and deny every run they judge (set ALERTMANAGER_URL / PROMETHEUS_URL or SIGNAL_SOURCES_FILE, docs/signals.md)';
/** Said in the log (error) for rules with `onUnavailable: allow`: they are switched off, which no run shows. */
exports.UNCONFIGURED_FAIL_OPEN_ERROR = 'policies ask signal sources this deployment does not configure with onUnavailable: allow: their rules are switched off and let every run they judge through unchecked, the guardrail is off (set ALERTMANAGER_URL / PROMETHEUS_URL or SIGNAL_SOURCES_FILE, docs/signals.md)';
//# sourceMappingURL=unconfigured-sources.js.map