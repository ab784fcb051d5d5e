"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.targetId = void 0;
exports.unlistedSteps = unlistedSteps;
exports.runFootprint = runFootprint;
const targeted_step_1 = require("../core/targeted-step");
const action_steps_1 = require("./action-steps");
/** A target as "the same target" compares it: its type and name (`com.steadybit.extension_host.host/web-1`). */
const targetId = (t) => typeof t.name === 'string' && t.name !== '' ? `${t.type ?? ''}/${t.name}` : undefined;
exports.targetId = targetId;
/** The targeted steps that do not list every target they expect (no per-target work). */
function unlistedSteps(steps) {
    const out = [];
    for (const ref of (0, action_steps_1.actionSteps)(steps)) {
        if (!(0, targeted_step_1.isTargeted)(ref.step))
            continue;
        const listed = Array.isArray(ref.step.targetExecutions) ? ref.step.targetExecutions.length : 0;
        const expected = ref.step.totalTargetCount;
        if ((listed === 0 && expected !== 0) || (typeof expected === 'number' && expected > listed))
            out.push({ ref, listed, expected });
    }
    return out;
}
/**
 * The targets of every targeted action step of a run (nested validations too) and the values of
 * `keys` they carry. The same function reads the run being decided and every run kept in progress,
 * so both sides compare the same strings.
 */
function runFootprint(steps, keys) {
    const wanted = new Set(keys);
    const footprint = { targets: new Set(), attributes: new Map(), unlisted: unlistedSteps(steps) };
    for (const ref of (0, action_steps_1.actionSteps)(steps)) {
        if (!(0, targeted_step_1.isTargeted)(ref.step))
            continue;
        const targets = Array.isArray(ref.step.targetExecutions) ? ref.step.targetExecutions : [];
        for (const target of targets) {
            const id = (0, exports.targetId)(target);
            if (id !== undefined)
                footprint.targets.add(id);
            if (wanted.size === 0)
                continue;
            for (const a of target.attributes ?? []) {
                if (!wanted.has(a.key) || typeof a.value !== 'string')
                    continue;
                let values = footprint.attributes.get(a.key);
                if (values === undefined)
                    footprint.attributes.set(a.key, (values = new Set()));
                values.add(a.value);
            }
        }
    }
    return footprint;
}
//# sourceMappingURL=run-footprint.js.map