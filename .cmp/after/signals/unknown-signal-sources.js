"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.unknownSignalSources = unknownSignalSources;
const near_name_1 = require("../policy/compile/near-name");
const source_kind_1 = require("../policy/signals/source-kind");
const signal_source_1 = require("./signal-source");
const KIND_OF_NEED = {
    alerts: 'alertmanager',
    prometheus: 'prometheus',
    json: 'json',
};
/** What the service does with the runs such a rule judges, by its `onUnavailable`. */
const WHAT_HAPPENS = {
    deny: 'the service would deny every run this rule judges',
    allow: 'with onUnavailable: allow the service would let every run this rule judges through unchecked: the rule is switched off, the guardrail is off',
};
const RULE_PATH = /^rules\[(\d+)\]\.(.+)$/;
/**
 * Where a rule's `source:` is written (`rules[1].alerts.source`), or its rule when it names none
 * (the `default` source); the policy's first line when its document is not found.
 */
function sourceAt(policy, rule, find) {
    const m = RULE_PATH.exec(rule.path);
    const doc = find?.(policy.source.file, 'Policy', policy.name);
    if (!m || !doc)
        return { line: policy.source.line, col: policy.source.col };
    return doc.locate(['rules', Number(m[1]), m[2], 'source']);
}
/**
 * The signal rules whose `source:` the sources file does not define (`preflight-gate validate
 * --signal-sources`): the service would deny every run such a rule judges, or with `onUnavailable:
 * allow` let every one through unchecked. Each is an error at its
 * policy, with the closest name the file defines for that kind. The `default` Alertmanager and
 * Prometheus are left out when the file does not define them: ALERTMANAGER_URL / PROMETHEUS_URL
 * define them where the service runs. `find` gives the documents the set was loaded from: each
 * error is at the rule's `source:` (without it, at the policy's first line).
 */
function unknownSignalSources(bundle, defined, file, find) {
    const out = [];
    for (const policy of bundle.policies)
        for (const rule of policy.rules) {
            const told = new Set();
            for (const need of rule.needs ?? []) {
                const kind = KIND_OF_NEED[need.kind];
                if (kind === undefined || !('source' in need))
                    continue;
                const name = need.source;
                if (defined.some((s) => s.kind === kind && s.name === name) || told.has(name))
                    continue;
                if (name === source_kind_1.DEFAULT_SOURCE && signal_source_1.ENV_SOURCE_KINDS.includes(kind))
                    continue;
                told.add(name);
                const names = defined.filter((s) => s.kind === kind).map((s) => s.name);
                const near = (0, near_name_1.closest)(name, names);
                const hint = near === undefined ? '' : `: did you mean "${near}"?`;
                const known = names.length === 0 ? `it defines no ${kind} source` : `its ${kind} sources: ${names.join(', ')}`;
                out.push({
                    file: policy.source.file,
                    ...sourceAt(policy, rule, find),
                    path: `${rule.path}.source`,
                    message: `${(0, source_kind_1.sourceText)(kind, name)} is not defined in the signal sources file ${file}${hint} (${known}); ${WHAT_HAPPENS[need.onUnavailable ?? 'deny']}`,
                    severity: 'error',
                });
            }
        }
    return out;
}
//# sourceMappingURL=unknown-signal-sources.js.map