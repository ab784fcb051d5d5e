"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.timeWindowRule = void 0;
const rule_kind_1 = require("../core/rule-kind");
const checked_1 = require("../core/checked");
const freeze_window_1 = require("../time/freeze-window");
const yearly_window_1 = require("../time/yearly-window");
const recurring_window_1 = require("../time/recurring-window");
const zone_1 = require("../time/zone");
const zone_name_1 = require("../../syntax/zone-name");
const text = (description) => ({ type: 'string', minLength: 1, description });
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
        start: text('Freeze start: RFC 3339 (2026-12-18T00:00:00Z), local date[-time] in timeZone (2026-12-18, 2026-12-18T17:00), or a date of every year (12-18, 12-18T17:00).'),
        end: text('Freeze end (exclusive), same forms as start; a date of every year before start runs into the next year.'),
    },
};
function compileDeny(spec, zone, path) {
    const isFreeze = spec.start !== undefined;
    const isRecurring = spec.from !== undefined;
    if (isFreeze === isRecurring) {
        throw new rule_kind_1.RuleSpecError('a deny window is either a freeze (start + end) or a recurring window (days + from + to), not both or neither', path);
    }
    if (isFreeze && ((0, yearly_window_1.isYearlyMoment)(spec.start ?? '') || (0, yearly_window_1.isYearlyMoment)(spec.end ?? ''))) {
        if (!(0, yearly_window_1.isYearlyMoment)(spec.start ?? '') || !(0, yearly_window_1.isYearlyMoment)(spec.end ?? '')) {
            // The other end is a date, or not written right: a value that is neither is named as such.
            const [other, key] = (0, yearly_window_1.isYearlyMoment)(spec.start ?? '') ? [spec.end ?? '', 'end'] : [spec.start ?? '', 'start'];
            (0, freeze_window_1.parseMoment)(other, zone, [...path, key]);
            throw new rule_kind_1.RuleSpecError('start and end of a freeze are both dates of every year (12-18, 12-18T17:00) or both dates (2026-12-18), not one of each', path);
        }
        const yearly = (0, yearly_window_1.compileYearly)(spec, zone, path);
        return { text: yearly.text, hit: (ctx) => yearly.contains((0, zone_1.requestLocalTime)(ctx, zone)), textInZone: yearly.text };
    }
    if (isFreeze) {
        const freeze = (0, freeze_window_1.compileFreeze)(spec, zone, path);
        return { text: freeze.text, hit: (ctx) => freeze.contains(ctx.now), end: freeze.end, textInZone: freeze.text };
    }
    const weekly = (0, recurring_window_1.compileRecurring)(spec, path);
    return {
        text: weekly.text,
        hit: (ctx) => weekly.contains((0, zone_1.requestLocalTime)(ctx, zone)),
        textInZone: `${weekly.text} ${zone}`,
    };
}
/** The rule's windows, compiled, and the texts its findings carry (the check's and the branches' one source). */
function windowsOf(spec) {
    if (spec.allowed === undefined && spec.deny === undefined) {
        throw new rule_kind_1.RuleSpecError('a time window needs allowed windows, deny windows, or both');
    }
    // Every window is checked, so a calendar with several mistakes reports each of them; with a
    // misspelt zone too (its freezes are then read in UTC, only to find their own mistakes).
    const checkedZone = (0, zone_name_1.zoneProblem)(spec.timeZone) === undefined ? spec.timeZone : 'UTC';
    const [zone, allowed, deny] = (0, rule_kind_1.checkAll)(() => (0, zone_1.checkZone)(spec.timeZone), () => (0, rule_kind_1.checkEach)(spec.allowed ?? [], (w, i) => (0, recurring_window_1.compileRecurring)(w, ['allowed', String(i)])), () => (0, rule_kind_1.checkEach)(spec.deny ?? [], (w, i) => compileDeny(w, checkedZone, ['deny', String(i)])));
    return { zone, allowed, deny, allowedText: `${allowed.map((w) => w.text).join(', ')} ${zone}` };
}
const OUTSIDE_ALLOWED = 'outside the allowed time windows (';
const insideDeny = (w) => `inside the deny window ${w.textInZone}: `;
/**
 * Inside and outside the allowed windows (as one: the rule allows inside any of them), and inside
 * and outside each deny window, read from the findings' value and reason (docs/test-coverage.md).
 */
function branchesOf(spec) {
    const { allowed, deny, allowedText } = windowsOf(spec);
    const outside = (f) => f.some((x) => x.value === allowedText && x.reason.startsWith(OUTSIDE_ALLOWED));
    const out = [];
    if (allowed.length > 0) {
        out.push({
            path: ['allowed'],
            name: 'allowed: inside',
            label: `inside an allowed window (${allowedText})`,
            taken: (f) => !outside(f),
        }, {
            path: ['allowed'],
            name: 'allowed: outside',
            label: `outside every allowed window (${allowedText})`,
            taken: outside,
        });
    }
    deny.forEach((w, i) => {
        const hit = (f) => f.some((x) => x.value === w.text && x.reason.startsWith(insideDeny(w)));
        out.push({
            path: ['deny', String(i)],
            name: `deny[${i}]: inside`,
            label: `inside the deny window ${w.textInZone}`,
            taken: hit,
        }, {
            path: ['deny', String(i)],
            name: `deny[${i}]: outside`,
            label: `outside the deny window ${w.textInZone}`,
            taken: (f) => !hit(f),
        });
    });
    return out;
}
/**
 * `- timeWindow: {timeZone: Europe/Berlin, allowed: [{days: [Mon-Fri], from: "09:00", to: "17:00"}],
 *    deny: [{name: year-end freeze, start: 2026-12-18, end: 2027-01-04}]}`
 */
exports.timeWindowRule = (0, rule_kind_1.defineRule)({
    key: 'timeWindow',
    description: 'Allow runs only inside weekly windows and/or deny them inside freezes and recurring windows, in an IANA time zone.',
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
            staleParts: (now) => deny.flatMap((w, i) => w.end !== undefined && w.end <= now
                ? [
                    {
                        path: ['deny', String(i)],
                        message: `the deny window ${w.text} ended and no longer applies; remove it`,
                    },
                ]
                : []),
            check: (0, checked_1.findings)(({ ctx }) => {
                const out = [];
                // The local time is described only for a message: most runs are inside their windows.
                const now = () => `it is ${(0, zone_1.describeRequestLocal)(ctx, zone)} now`;
                if (allowed.length > 0) {
                    const local = (0, zone_1.requestLocalTime)(ctx, zone);
                    if (!allowed.some((w) => w.contains(local)))
                        out.push({ reason: `${OUTSIDE_ALLOWED}${allowedText}): ${now()}`, value: allowedText });
                }
                for (const w of deny) {
                    if (w.hit(ctx))
                        out.push({ reason: `${insideDeny(w)}${now()}`, value: w.text });
                }
                return out;
            }),
        };
    },
    branches: branchesOf,
});
//# sourceMappingURL=time-window.js.map