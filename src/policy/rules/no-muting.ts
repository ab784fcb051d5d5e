import { compileGlobs, type Matcher } from '../core/glob-matcher';
import { checkEach, defineRule, RuleSpecError } from '../core/rule-kind';
import { findings } from '../core/checked';
import { actionOf, stepName } from '../engine/step-text';
import type { ActionStepRef, Violation } from '../core/decision';
import { globListSchema } from './glob-list-schema';

/** One way a step mutes what the gate watches: its action ids, and the parameters that tell (an HTTP request's url). */
interface Mute {
  what: string;
  actions: string[];
  parameters?: Record<string, string>;
  whenMissing?: 'deny' | 'allow';
}
interface Spec {
  mutes: Mute[];
}

interface CompiledMute {
  what: string;
  actions: Matcher;
  parameters: ReadonlyArray<{ name: string; glob: string; matches: Matcher }>;
  denyMissing: boolean;
}

/** A parameter as a glob reads it: a string as sent, anything else as its JSON. */
const parameterText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

function compileMute(mute: Mute): CompiledMute {
  // The globs' syntax is checked by the schema (`syntax: glob`) before compile.
  const parameters = Object.entries(mute.parameters ?? {}).map(([name, glob]) => ({
    name,
    glob,
    matches: compileGlobs([glob]),
  }));
  return {
    what: mute.what,
    actions: compileGlobs(mute.actions),
    parameters,
    denyMissing: mute.whenMissing !== 'allow',
  };
}

/** Whether the step mutes as `mute` says: a violation (it does, or it cannot be told), or undefined. */
function judge(ref: ActionStepRef, mute: CompiledMute): Violation | undefined {
  const id = ref.step.actionId;
  if (id === undefined || !mute.actions(id)) return undefined;
  const params = ref.step.parameters;
  const said: string[] = [];
  for (const p of mute.parameters) {
    const raw = params && Object.hasOwn(params, p.name) ? params[p.name] : undefined;
    if (raw === undefined || raw === null) {
      if (!mute.denyMissing) return undefined;
      return {
        reason: `cannot decide: ${stepName(ref)} runs ${id} but sends no ${p.name} parameter, so whether it creates ${mute.what} (muting what the gate watches) is not known; set whenMissing: allow to let such steps through`,
        step: ref,
        value: id,
        status: 'undecidable',
      };
    }
    const text = parameterText(raw);
    if (!p.matches(text)) return undefined;
    said.push(`${p.name} ${JSON.stringify(text)}`);
  }
  const sending = said.length > 0 ? ` with ${said.join(' and ')}` : '';
  return {
    reason: `${stepName(ref)} runs ${actionOf(ref)}${sending}, which creates ${mute.what}: it mutes what the gate watches, so the gate could not see the run's harm`,
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
export const noMutingRule = defineRule<Spec>({
  key: 'noMuting',
  description:
    'Deny steps that mute what the gate watches (downtimes, maintenance windows, silences): by action id globs, and parameter globs where the action alone does not tell.',
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
            actions: globListSchema(
              'Action id globs (case-insensitive), e.g. com.steadybit.extension_datadog.monitor.downtime.',
            ),
            parameters: {
              type: 'object',
              minProperties: 1,
              propertyNames: { type: 'string', minLength: 1, syntax: 'trimmed' },
              additionalProperties: { type: 'string', minLength: 1, syntax: 'glob' },
              description:
                'Parameter name -> glob its value must match too (case-insensitive), e.g. {url: "*/api/v2/silences*"}.',
            },
            whenMissing: {
              type: 'string',
              enum: ['deny', 'allow'],
              default: 'deny',
              description:
                'A step of these actions that does not send one of the parameters: cannot decide (deny), or let it through.',
            },
          },
        },
      },
    },
  },
  compile(spec) {
    const mutes = checkEach(spec.mutes, (mute, i) => {
      const what = mute.what.trim().toLowerCase();
      const again = spec.mutes.findIndex((m) => m.what.trim().toLowerCase() === what);
      if (again !== i)
        throw new RuleSpecError(
          `"${mute.what}" is said by mutes[${again}] already: each mute's what names it in denials, so it must be unique (ignoring case)`,
          ['mutes', String(i), 'what'],
        );
      return compileMute(mute);
    });
    return {
      check: findings(({ steps }) => {
        const out: Violation[] = [];
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
