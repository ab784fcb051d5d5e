"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_TARGET_VALUES = void 0;
exports.attackedValues = attackedValues;
const step_text_1 = require("../engine/step-text");
const targeted_step_1 = require("../core/targeted-step");
/**
 * Most distinct values (or combinations of values) one signal rule asks about for one run: a rule
 * with `{{target.k8s.deployment}}` on a run acting on more deployments cannot decide, rather than
 * send hundreds of queries while Steadybit waits (docs/attacked-services.md). A constant, not a
 * setting: a replay must meet the same cap as the decision it replays.
 */
exports.MAX_TARGET_VALUES = 20;
const FEW = 3;
/**
 * The distinct values of `key` over the targets of every targeted step of the run (`steps`: its
 * action steps, service validations' actions included): one pass over the targets and their attributes.
 */
function attackedValues(steps, key) {
    const values = new Set();
    const without = [];
    let withoutCount = 0;
    const unlisted = [];
    for (const ref of steps) {
        if (!(0, targeted_step_1.isTargeted)(ref.step))
            continue;
        const targets = ref.step.targetExecutions ?? [];
        const expected = ref.step.totalTargetCount;
        if ((targets.length === 0 && expected !== 0) || (typeof expected === 'number' && expected > targets.length))
            unlisted.push((0, step_text_1.stepName)(ref));
        targets.forEach((t, i) => {
            let found = false;
            for (const a of t.attributes ?? []) {
                if (a.key !== key)
                    continue;
                found = true;
                if (a.value !== '')
                    values.add(a.value);
            }
            if (found)
                return;
            withoutCount += 1;
            if (without.length < FEW)
                without.push(t.name ? `target ${t.name}` : `${ref.path}.targetExecutions[${i}]`);
        });
    }
    return { key, values: [...values], without, withoutCount, unlisted };
}
//# sourceMappingURL=attacked-values.js.map