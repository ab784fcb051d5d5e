"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.noMutingRule = void 0;
const glob_matcher_1 = require("../core/glob-matcher");
const rule_kind_1 = require("../core/rule-kind");
const checked_1 = require("../core/checked");
const step_text_1 = require("../engine/step-text");
const glob_list_schema_1 = require("./glob-list-schema");
/** A parameter as a glob reads it: a string as sent, anything else as its JSON. */
const parameterText = (value) => (typeof value === 'string' ? value : JSON.stringify(value));
function compileMute(mute) {
    // The globs' syntax is checked by the schema (`syntax: glob`) before compile.
    const parameters = Object.entries(mute.parameters ?? {}).map(([name, glob]) => ({
        name,
        glob,
        matches: (0, glob_matcher_1.compileGlobs)([glob]),
    }));
    return {
        what: mute.what,
        actions: (0, glob_matcher_1.compileGlobs)(mute.actions),
        parameters,
        denyMissing: mute.whenMissing !== 'allow',
    };
}
/** Whether the step mutes as `mute` says: a violation (it does, or it cannot be told), or undefined. */
function judge(ref, mute) {
    const id = ref.step.actionId;
    if (id === undefined || !mute.actions(id))
        return undefined;
    const params = ref.step.parameters;
    const said = [];
    for (const p of mute.parameters) {
        const raw = params && Object.hasOwn(params, p.name) ? params[p.name] : undefined;
        if (raw === undefined || raw === null) {
            if (!mute.denyMissing)
                return undefined;
            return {
                reason: `cannot decide: ${(0, step_text_1.stepName)(ref)} runs ${id} but sends no ${p.name} parameter, so whether it creates ${mute.what} (muting what the gate watches) is not known; set whenMissing: allow to let such steps through`,
                step: ref,
                value: id,
                status: 'undecidable',
            };
        }
        const text = parameterText(raw);
        if (!p.matches(text))
            return undefined;
        said.push(`${p.name} ${JSON.stringify(text)}`);
    }
    const sending = said.length > 0 ? ` with ${said.join(' and ')}` : '';
    return {
        reason: `${(0, step_text_1.stepName)(ref)} runs ${(0, step_text_1.actionOf)(ref)}${sending}, which creates ${mute.what}: it mutes what the gate watches, so the gate could not see the run's harm`,
        step: ref,
        value: id,
    };
}
/**
 * `- noMuting: {mutes: [{what: a Datadog monitor downtime, actions: [com.steadybit.extension_datadog.monitor.downtime]}]}`:
 * no step may mute what the gate watches (a downtime, a maintenance window, an Alertmanager
 * silence). A step is recognised by its action id, and where the action alone does not tell (an
 * HTTP request creating a silence) by parameter globs too. Judged per action step in scope; the
 * first way a step mutes is said. A run that needs to mute is let through by an exception.
 */
exports.noMutingRule = (0, rule_kind_1.defineRule)({
    key: 'noMuting',
    description: 'Deny steps that mute what the gate watches (downtimes, maintenance windows, silences): by action id globs, and parameter globs where the action alone does not tell.',
    schema: {
        type: 'object',
        additionalProperties: false,
        required: ['mutes'],
        properties: {
            mutes: {
                type: 'array',
                minItems: 1,
                description: 'The ways a step mutes what the gate watches.',
                items: {
                    type: 'object',
                    additionalProperties: false,
                    required: ['what', 'actions'],
                    properties: {
                        what: {
                            type: 'string',
                            minLength: 1,
                            description: 'What such a step creates, as the message says it, e.g. "an Alertmanager silence".',
                        },
                        actions: (0, glob_list_schema_1.globListSchema)('Action id globs (case-insensitive), e.g. com.steadybit.extension_datadog.monitor.downtime.'),
                        parameters: {
                            type: 'object',
                            minProperties: 1,
                            propertyNames: { type: 'string', minLength: 1, syntax: 'trimmed' },
                            additionalProperties: { type: 'string', minLength: 1, syntax: 'glob' },
                            description: 'Parameter name -> glob its value must match too (case-insensitive), e.g. {url: "*/api/v2/silences*"}.',
                        },
                        whenMissing: {
                            type: 'string',
                            enum: ['deny', 'allow'],
                            default: 'deny',
                            description: 'A step of these actions that does not send one of the parameters: cannot decide (deny), or let it through.',
                        },
                    },
                },
            },
        },
    },
    compile(spec) {
        const mutes = (0, rule_kind_1.checkEach)(spec.mutes, (mute, i) => {
            const what = mute.what.trim().toLowerCase();
            const again = spec.mutes.findIndex((m) => m.what.trim().toLowerCase() === what);
            if (again !== i)
                throw new rule_kind_1.RuleSpecError(`"${mute.what}" is said by mutes[${again}] already`, ['mutes', String(i), 'what']);
            return compileMute(mute);
        });
        return {
            check: (0, checked_1.findings)(({ steps }) => {
                const out = [];
                for (const ref of steps) {
                    for (const mute of mutes) {
                        const v = judge(ref, mute);
                        if (v) {
                            out.push(v);
                            break;
                        }
                    }
                }
                return out;
            }),
        };
    },
});
//# sourceMappingURL=no-muting.js.map