"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ruleKey = void 0;
exports.coveragePlan = coveragePlan;
const built_in_policies_1 = require("../../policy/compile/built-in-policies");
const written_documents_1 = require("../../policy/loading/written-documents");
const rules_1 = require("../../policy/rules");
const rule_changes_1 = require("./rule-changes");
/** The key a rule is tallied under: its policy and its path there. */
const ruleKey = (policy, rule) => `${policy}\n${rule}`;
exports.ruleKey = ruleKey;
const RULE_PATH = /^rules\[(\d+)\]\.(.+)$/;
/** A rule's branches, declared by its kind from the spec as written (RuleKind.branches). */
function branchesOf(kind, spec) {
    return rules_1.RULES_BY_KEY.get(kind)?.branches?.(spec) ?? [];
}
/** The branches of a base rule entry; undefined when its spec no longer compiles (the base is only read, never loaded). */
function baseBranchesOf(entry) {
    const [kind, spec] = Object.entries((entry ?? {}))[0] ?? [];
    try {
        return kind === undefined ? undefined : branchesOf(kind, spec);
    }
    catch {
        return undefined;
    }
}
const changed = (change) => (change === undefined ? {} : { change });
/**
 * Everything of the loaded policy set that the cases can exercise, in file order: each policy,
 * its rules and their branches, and each exception; the built-in policies are not counted (no file
 * of the set holds them). `sources` are the files the bundle was loaded from: they give the lines.
 * With `base` (--coverage-changed), the rules and branches the change adds or edits say so.
 */
function coveragePlan(bundle, sources, base) {
    const documentOf = (0, written_documents_1.writtenDocuments)(sources);
    const items = [];
    for (const policy of bundle.policies) {
        if (policy.source.file === built_in_policies_1.BUILT_IN_FILE)
            continue;
        const doc = documentOf(policy.source.file, 'Policy', policy.name);
        const at = doc ? (path, how) => doc.locate(path, how) : () => policy.source;
        const { file } = policy.source;
        items.push({ kind: 'policy', file, ...at([]), policy: policy.name });
        const writtenRules = doc?.value?.rules ?? [];
        const changes = base ? (0, rule_changes_1.ruleChanges)(writtenRules, base.rules.get(policy.name)) : [];
        for (const rule of policy.rules) {
            const m = RULE_PATH.exec(rule.path);
            const index = m ? Number(m[1]) : -1;
            // A rule whose written entry cannot be found is compared as added: the check asks more, never less.
            const ruleChange = base ? (changes[index] ?? { change: 'added' }) : {};
            items.push({
                kind: 'rule',
                file,
                ...at(['rules', index]),
                policy: policy.name,
                rule: rule.path,
                ...changed(ruleChange.change),
            });
            const spec = writtenRules[index]?.[rule.kind];
            const baseBranches = ruleChange.change === 'edited' ? baseBranchesOf(ruleChange.before) : undefined;
            const branches = spec === undefined ? [] : branchesOf(rule.kind, spec);
            for (const branch of branches) {
                const where = at(['rules', index, rule.kind, ...branch.path.map((p) => (/^\d+$/.test(p) ? Number(p) : p))]);
                const change = (0, rule_changes_1.branchChange)(ruleChange, branch, branches, baseBranches);
                items.push({
                    kind: 'branch',
                    file,
                    ...where,
                    policy: policy.name,
                    rule: rule.path,
                    branch,
                    ...changed(change),
                });
            }
        }
    }
    for (const e of bundle.exceptions) {
        const doc = documentOf(e.source.file, 'Exception', e.name);
        const where = doc ? doc.locate([]) : e.source;
        items.push({ kind: 'exception', file: e.source.file, ...where, policy: e.policy, exception: e.name });
    }
    return items;
}
//# sourceMappingURL=coverage-plan.js.map