import { checkAll, checkEach, defineRule, RuleSpecError } from '../core/rule-kind';
import { findings } from '../core/checked';
import { compileFreeze, parseMoment, type FreezeSpec, type FreezeWindow } from '../time/freeze-window';
import { compileYearly, isYearlyMoment } from '../time/yearly-window';
import { compileRecurring, type RecurringSpec, type RecurringWindow } from '../time/recurring-window';
import { checkZone, describeRequestLocal, requestLocalTime } from '../time/zone';
import { zoneProblem } from '../../syntax/zone-name';
import type { EvaluationContext } from '../core/evaluation-context';
import type { Finding, Violation } from '../core/decision';
import type { RuleBranch } from '../core/rule-branch';

type DenySpec = Partial<FreezeSpec & RecurringSpec>;
interface Spec {
  timeZone: string;
  allowed?: RecurringSpec[];
  deny?: DenySpec[];
}

const text = (description: string) => ({ type: 'string', minLength: 1, description });
const recurringProps = {
  name: text('Shown in the message, e.g. "business hours".'),
  days: {
    type: 'array',
    minItems: 1,
    items: text('Mon..Sun or a range such as Mon-Fri.'),
    description: 'Days the window starts on (default: every day).',
  },
  from: text('Local start time, HH:MM.'),
  to: text('Local end time, HH:MM (24:00 = midnight); at or before `from` means the next day.'),
};
const allowedItem = {
  type: 'object',
  additionalProperties: false,
  required: ['from', 'to'],
  properties: recurringProps,
};
const denyItem = {
  type: 'object',
  additionalProperties: false,
  dependencies: { start: ['end'], end: ['start'], from: ['to'], to: ['from'], days: ['from'] },
  properties: {
    ...recurringProps,
    start: text(
      'Freeze start: RFC 3339 (2026-12-18T00:00:00Z), local date[-time] in timeZone (2026-12-18, 2026-12-18T17:00), or a date of every year (12-18, 12-18T17:00).',
    ),
    end: text(
      'Freeze end (exclusive), same forms as start; a date of every year before start runs into the next year.',
    ),
  },
};

/** `textInZone`: a freeze's text names its zone already; a weekly window's gets the zone added. */
type DenyWindow = Pick<FreezeWindow | RecurringWindow, 'text'> & {
  hit(ctx: EvaluationContext): boolean;
  end?: Date;
  textInZone: string;
};

function compileDeny(spec: DenySpec, zone: string, path: string[]): DenyWindow {
  const isFreeze = spec.start !== undefined;
  const isRecurring = spec.from !== undefined;
  if (isFreeze === isRecurring) {
    throw new RuleSpecError(
      'a deny window is either a freeze (start + end) or a recurring window (days + from + to), not both or neither',
      path,
    );
  }
  if (isFreeze && (isYearlyMoment(spec.start ?? '') || isYearlyMoment(spec.end ?? ''))) {
    if (!isYearlyMoment(spec.start ?? '') || !isYearlyMoment(spec.end ?? '')) {
      // The other end is a date, or not written right: a value that is neither is named as such.
      const [other, key] = isYearlyMoment(spec.start ?? '') ? [spec.end ?? '', 'end'] : [spec.start ?? '', 'start'];
      parseMoment(other, zone, [...path, key]);
      throw new RuleSpecError(
        'start and end of a freeze are both dates of every year (12-18, 12-18T17:00) or both dates (2026-12-18), not one of each',
        path,
      );
    }
    const yearly = compileYearly(spec as FreezeSpec, zone, path);
    return { text: yearly.text, hit: (ctx) => yearly.contains(requestLocalTime(ctx, zone)), textInZone: yearly.text };
  }
  if (isFreeze) {
    const freeze = compileFreeze(spec as FreezeSpec, zone, path);
    return { text: freeze.text, hit: (ctx) => freeze.contains(ctx.now), end: freeze.end, textInZone: freeze.text };
  }
  const weekly = compileRecurring(spec as RecurringSpec, path);
  return {
    text: weekly.text,
    hit: (ctx) => weekly.contains(requestLocalTime(ctx, zone)),
    textInZone: `${weekly.text} ${zone}`,
  };
}

/** The rule's windows, compiled, and the texts its findings carry (the check's and the branches' one source). */
function windowsOf(spec: Spec) {
  if (spec.allowed === undefined && spec.deny === undefined) {
    throw new RuleSpecError('a time window needs allowed windows, deny windows, or both');
  }
  // Every window is checked, so a calendar with several mistakes reports each of them; with a
  // misspelt zone too (its freezes are then read in UTC, only to find their own mistakes).
  const checkedZone = zoneProblem(spec.timeZone) === undefined ? spec.timeZone : 'UTC';
  const [zone, allowed, deny] = checkAll(
    () => checkZone(spec.timeZone),
    () => checkEach(spec.allowed ?? [], (w, i) => compileRecurring(w, ['allowed', String(i)])),
    () => checkEach(spec.deny ?? [], (w, i) => compileDeny(w, checkedZone, ['deny', String(i)])),
  );
  return { zone, allowed, deny, allowedText: `${allowed.map((w) => w.text).join(', ')} ${zone}` };
}

const OUTSIDE_ALLOWED = 'outside the allowed time windows (';
const insideDeny = (w: DenyWindow) => `inside the deny window ${w.textInZone}: `;

/**
 * Inside and outside the allowed windows (as one: the rule allows inside any of them), and inside
 * and outside each deny window, read from the findings' value and reason (docs/test-coverage.md).
 */
function branchesOf(spec: Spec): RuleBranch[] {
  const { allowed, deny, allowedText } = windowsOf(spec);
  const outside = (f: readonly Finding[]) =>
    f.some((x) => x.value === allowedText && x.reason.startsWith(OUTSIDE_ALLOWED));
  const out: RuleBranch[] = [];
  if (allowed.length > 0) {
    out.push(
      {
        path: ['allowed'],
        name: 'allowed: inside',
        label: `inside an allowed window (${allowedText})`,
        taken: (f) => !outside(f),
      },
      {
        path: ['allowed'],
        name: 'allowed: outside',
        label: `outside every allowed window (${allowedText})`,
        taken: outside,
      },
    );
  }
  deny.forEach((w, i) => {
    const hit = (f: readonly Finding[]) => f.some((x) => x.value === w.text && x.reason.startsWith(insideDeny(w)));
    out.push(
      {
        path: ['deny', String(i)],
        name: `deny[${i}]: inside`,
        label: `inside the deny window ${w.textInZone}`,
        taken: hit,
      },
      {
        path: ['deny', String(i)],
        name: `deny[${i}]: outside`,
        label: `outside the deny window ${w.textInZone}`,
        taken: (f) => !hit(f),
      },
    );
  });
  return out;
}

/**
 * `- timeWindow: {timeZone: Europe/Berlin, allowed: [{days: [Mon-Fri], from: "09:00", to: "17:00"}],
 *    deny: [{name: year-end freeze, start: 2026-12-18, end: 2027-01-04}]}`
 */
export const timeWindowRule = defineRule<Spec>({
  key: 'timeWindow',
  description:
    'Allow runs only inside weekly windows and/or deny them inside freezes and recurring windows, in an IANA time zone.',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['timeZone'],
    properties: {
      timeZone: { ...text('IANA time zone, e.g. Europe/Berlin, America/New_York, UTC.'), syntax: 'timeZone' },
      allowed: {
        type: 'array',
        minItems: 1,
        items: allowedItem,
        description: 'Runs must start inside one of these weekly windows.',
      },
      deny: {
        type: 'array',
        minItems: 1,
        items: denyItem,
        description: 'Runs may not start inside any of these freezes or weekly windows.',
      },
    },
  },
  compile(spec) {
    const { allowed, deny, allowedText, zone } = windowsOf(spec);
    return {
      staleParts: (now) =>
        deny.flatMap((w, i) =>
          w.end !== undefined && w.end <= now
            ? [
                {
                  path: ['deny', String(i)],
                  message: `the deny window ${w.text} ended and no longer applies; remove it`,
                },
              ]
            : [],
        ),
      check: findings(({ ctx }) => {
        const out: Violation[] = [];
        // The local time is described only for a message: most runs are inside their windows.
        const now = () => `it is ${describeRequestLocal(ctx, zone)} now`;
        if (allowed.length > 0) {
          const local = requestLocalTime(ctx, zone);
          if (!allowed.some((w) => w.contains(local)))
            out.push({ reason: `${OUTSIDE_ALLOWED}${allowedText}): ${now()}`, value: allowedText });
        }
        for (const w of deny) {
          if (w.hit(ctx)) out.push({ reason: `${insideDeny(w)}${now()}`, value: w.text });
        }
        return out;
      }),
    };
  },
  branches: branchesOf,
});
