import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBundle } from '../../src/policy/loading/load-bundle';
import { formatProblem } from '../../src/policy/compile/load-error';

/**
 * Hostile configurations (probot keeps its own as fixture files): every document in
 * test/fixtures/malformed-policies is a mistake someone will make, and each must stop the load
 * with every problem it holds, at the line and column of the fault. A typo never loads as a rule
 * that silently matches nothing.
 */
const DIR = join(__dirname, '..', 'fixtures', 'malformed-policies');
const NOW = new Date('2026-01-05T10:00:00Z');

function problemsOf(file: string): string[] {
  const result = loadBundle([{ file, text: readFileSync(join(DIR, file), 'utf8') }], NOW);
  return result.ok ? [] : result.problems.map(formatProblem);
}

const EXPECTED: Array<[string, string[]]> = [
  [
    'blocked-action-glob.yaml',
    [
      String.raw`blocked-action-glob.yaml:7:11 rules[0].actions.blocked[0]: malformed glob "com.steadybit.[extension_*": the [ at column 15 is never closed; write \[ for a literal [`,
      String.raw`blocked-action-glob.yaml:9:11 rules[0].actions.blocked[2]: malformed glob "[z-a]*": the range "z-a" at column 2 is reversed (nothing lies between); write a-z`,
      String.raw`blocked-action-glob.yaml:10:11 rules[0].actions.blocked[3]: malformed glob "*{delete,terminate*": the { at column 2 is never closed; write \{ for a literal {`,
      String.raw`blocked-action-glob.yaml:11:17 rules[0].actions.allowed[0]: malformed glob "@(a|b": the @( at column 1 is never closed; write \( for a literal (`,
      String.raw`blocked-action-glob.yaml:11:26 rules[0].actions.allowed[1]: malformed glob "{x,}": empty alternative at column 4 in the { at column 1`,
    ],
  ],
  [
    'every-error-at-once.yaml',
    [
      String.raw`every-error-at-once.yaml:4:7 mode: must be one of enforce, warn, audit, got "enforced": did you mean "enforce"?`,
      String.raw`every-error-at-once.yaml:6:27 rules[0].cooldown.duration: duration must be more than 0 and at most 31d, got "0m"`,
      String.raw`every-error-at-once.yaml:8:23 rules[1].parameters.cpuLoad.min: parameter cpuLoad: min 90 is larger than max 80`,
      String.raw`every-error-at-once.yaml:9:24 rules[1].parameters.duration.max: duration.max "5 minutes" is not a duration; use units ms, s, m, h, d as in 500ms, 30s, 5m, 1h30m`,
      String.raw`every-error-at-once.yaml:13:20 rules[2].timeWindow.allowed[0].days[0]: "Mon-Fry" is not a day or day range; use Mon, Tue, Wed, Thu, Fri, Sat, Sun or a range such as Mon-Fri`,
      String.raw`every-error-at-once.yaml:14:19 rules[2].timeWindow.allowed[1].from: "25:00" is not a time of day; write HH:MM on a 24-hour clock, e.g. 09:00 or 17:30 (24:00 ends a day)`,
      String.raw`every-error-at-once.yaml:16:39 rules[2].timeWindow.deny[0].end: end (2026-12-01) must be after start (2026-12-18)`,
      String.raw`every-error-at-once.yaml:17:34 rules[3].quota.window: window must be more than 0 and at most 31d, got "40d"`,
      String.raw`every-error-at-once.yaml:18:10 message: unknown placeholder {{teem}}; use one of {{policy}}, {{reason}}, {{experimentKey}}, {{team}}, {{environment}}, {{executionId}}, {{step}}, {{target}}, {{value}}, {{decisionId}}, {{revision}}, {{now}}`,
    ],
  ],
  // Issue 19, item 3: one run reports every problem of a part (each day, time and date of a
  // window, both bounds, every placeholder), a window's problems under a misspelt zone too, and a
  // duplicate name even when a copy has errors; a waiver of a policy with errors is not "missing".
  [
    'every-error-of-a-part.yaml',
    [
      'every-error-of-a-part.yaml:5:17 rules[0].timeWindow.timeZone: unknown time zone "Europe/Berln"; use an IANA name such as Europe/Berlin, America/New_York or UTC',
      'every-error-of-a-part.yaml:7:20 rules[0].timeWindow.allowed[0].days[0]: "Mon-Fry" is not a day or day range; use Mon, Tue, Wed, Thu, Fri, Sat, Sun or a range such as Mon-Fri',
      'every-error-of-a-part.yaml:7:29 rules[0].timeWindow.allowed[0].days[1]: "Sonday" is not a day or day range; use Mon, Tue, Wed, Thu, Fri, Sat, Sun or a range such as Mon-Fri',
      'every-error-of-a-part.yaml:7:44 rules[0].timeWindow.allowed[0].from: "25:00" is not a time of day; write HH:MM on a 24-hour clock, e.g. 09:00 or 17:30 (24:00 ends a day)',
      'every-error-of-a-part.yaml:7:57 rules[0].timeWindow.allowed[0].to: "26:00" is not a time of day; write HH:MM on a 24-hour clock, e.g. 09:00 or 17:30 (24:00 ends a day)',
      'every-error-of-a-part.yaml:9:20 rules[0].timeWindow.deny[0].start: "2026-13-01" is not a date-time (you specified 13 (of type number) as a month, which is invalid); write 2026-12-18, 2026-12-18T17:00 (local in the time zone), RFC 3339 such as 2026-12-18T16:00:00Z, or 12-18 for a freeze of every year',
      'every-error-of-a-part.yaml:9:37 rules[0].timeWindow.deny[0].end: "2026-12-32" is not a date-time (you specified 32 (of type number) as a day, which is invalid); write 2026-12-18, 2026-12-18T17:00 (local in the time zone), RFC 3339 such as 2026-12-18T16:00:00Z, or 12-18 for a freeze of every year',
      'every-error-of-a-part.yaml:10:36 rules[1].parameters.duration.min: duration.min "5x" is not a duration; use units ms, s, m, h, d as in 500ms, 30s, 5m, 1h30m',
      'every-error-of-a-part.yaml:10:45 rules[1].parameters.duration.max: duration.max "5 minutes" is not a duration; use units ms, s, m, h, d as in 500ms, 30s, 5m, 1h30m',
      'every-error-of-a-part.yaml:11:10 message: unknown placeholders {{teem}}, {{foo}}; use one of {{policy}}, {{reason}}, {{experimentKey}}, {{team}}, {{environment}}, {{executionId}}, {{step}}, {{target}}, {{value}}, {{decisionId}}, {{revision}}, {{now}}',
      'every-error-of-a-part.yaml:11:10 message: malformed placeholder near "{{bad-one}}": write {{name}} with letters only, e.g. {{experimentKey}}',
      'every-error-of-a-part.yaml:16:19 rules[0].environments: environment "prod" is both blocked and allowed',
      'every-error-of-a-part.yaml:14:7 name: duplicate policy name "calendar" (first defined at every-error-of-a-part.yaml:2)',
    ],
  ],
  [
    'exact-names.yaml',
    [
      String.raw`exact-names.yaml:4:11 match.teams[0]: "SHOP " starts or ends with whitespace, so it would never equal what Steadybit sends`,
      String.raw`exact-names.yaml:7:17 rules[0].environments.blocked[0]: "prod-*" is compared exactly, not as a glob (names, ids and team keys have no wildcards): list each name`,
      String.raw`exact-names.yaml:7:27 rules[0].environments.blocked[1]: "payments-prod " starts or ends with whitespace, so it would never equal what Steadybit sends`,
      String.raw`exact-names.yaml:11:3 aliases.prod *: "prod *" is compared exactly, not as a glob (names, ids and team keys have no wildcards): list each name`,
      String.raw`exact-names.yaml:12:13 aliases.staging[0]: "8d0c7a55-0000-4000-8000-000000000003 " starts or ends with whitespace, so it would never equal what Steadybit sends`,
    ],
  ],
  [
    'exception-glob.yaml',
    [
      String.raw`exception-glob.yaml:13:20 match.experimentKeys[0]: malformed glob "SHOP-{1,2": the { at column 6 is never closed; write \{ for a literal {`,
    ],
  ],
  [
    'keys-and-values.yaml',
    [
      String.raw`keys-and-values.yaml:5:21 rules[0].blastRadius.requireKeys[0]: " k8s.namespace" starts or ends with whitespace, so it would never equal what Steadybit sends`,
      String.raw`keys-and-values.yaml:7:9 rules[0].blastRadius.forbidValues.k8s.namespace : "k8s.namespace " starts or ends with whitespace, so it would never equal what Steadybit sends`,
      String.raw`keys-and-values.yaml:10:25 rules[1].targetAttributes.forbid.k8s.namespace[0]: "kube-system " starts or ends with whitespace, so it would never equal what Steadybit sends`,
      String.raw`keys-and-values.yaml:12:7 rules[2].parameters.duration : "duration " starts or ends with whitespace, so it would never equal what Steadybit sends`,
    ],
  ],
  // Lookalikes of a name (review finding 6): each would never equal what Steadybit sends, so a
  // blocked list holding one blocks nothing. Escaped here as in the fixture; one-script names load.
  [
    'lookalike-names.yaml',
    [
      'lookalike-names.yaml:4:11 match.teams[0]: "SH\u00a0OP" has an invisible or unusual space character (U+00A0) at column 3, so it would never equal what Steadybit sends: delete it (or retype the text)',
      'lookalike-names.yaml:7:17 rules[0].environments.blocked[0]: "pr\u043eduction" mixes Latin and Cyrillic letters in one word (U+043E "\u043e" at column 3 only looks like a Latin letter), so it would never equal what Steadybit sends: retype it (an environment whose name really has it can be listed by its id)',
      'lookalike-names.yaml:7:36 rules[0].environments.blocked[1]: "pay\u200bments-prod" has an invisible or unusual space character (U+200B) at column 4, so it would never equal what Steadybit sends: delete it (or retype the text)',
      'lookalike-names.yaml:7:59 rules[0].environments.blocked[2]: "\uff50rod" is not in Unicode\'s normal form (it has fullwidth, ligature or decomposed characters; normalized: "prod"), so it would never equal what Steadybit sends: write "prod" (an environment whose name really has it can be listed by its id)',
      'lookalike-names.yaml:11:3 aliases.st\u0430ging: "st\u0430ging" mixes Latin and Cyrillic letters in one word (U+0430 "\u0430" at column 3 only looks like a Latin letter), so it would never equal what Steadybit sends: retype it (an environment whose name really has it can be listed by its id)',
      'lookalike-names.yaml:12:13 aliases.staging[0]: "8d0c7a55-0000-4000-8000-00000000000\uff13" is not in Unicode\'s normal form (it has fullwidth, ligature or decomposed characters; normalized: "8d0c7a55-0000-4000-8000-000000000003"), so it would never equal what Steadybit sends: write "8d0c7a55-0000-4000-8000-000000000003" (an environment whose name really has it can be listed by its id)',
    ],
  ],
  [
    'names-and-durations.yaml',
    [
      String.raw`names-and-durations.yaml:2:7 name: "Prod_Guard" is not a name: use lower-case letters, digits and dashes (at most 63), starting and ending with a letter or digit: did you mean "prod-guard"?`,
      String.raw`names-and-durations.yaml:4:27 rules[0].cooldown.duration: "30 m" is not a duration: write an amount with a unit (ms, s, m, h, d, w), each unit at most once, largest first, e.g. 30s, 5m, 1h30m, 1d`,
      String.raw`names-and-durations.yaml:5:34 rules[1].quota.window: "1day" is not a duration: write an amount with a unit (ms, s, m, h, d, w), each unit at most once, largest first, e.g. 30s, 5m, 1h30m, 1d`,
      String.raw`names-and-durations.yaml:9:9 policy: "prod guard" is not a name: use lower-case letters, digits and dashes (at most 63), starting and ending with a letter or digit: did you mean "prod-guard"?`,
    ],
  ],
  [
    'per-type-key.yaml',
    [
      String.raw`per-type-key.yaml:6:9 rules[0].targets.perType.com.steadybit.extension_container.[container: malformed glob "com.steadybit.extension_container.[container": the [ at column 35 is never closed; write \[ for a literal [`,
    ],
  ],
  [
    'scope-globs.yaml',
    [
      String.raw`scope-globs.yaml:4:30 match.experimentKeys[1]: malformed glob "PAY-[0-9": the [ at column 5 is never closed; write \[ for a literal [`,
      String.raw`scope-globs.yaml:5:15 match.actionIds[0]: malformed glob "shutdown|delete": "|" at column 9 is not inside an extglob; write @(a|b) or {a,b} for alternatives, \| for a literal |`,
      String.raw`scope-globs.yaml:7:15 exclude.actionIds[0]: malformed glob "!(x": the !( at column 1 is never closed; write \( for a literal (`,
      String.raw`scope-globs.yaml:7:22 exclude.actionIds[1]: malformed glob "*.stop)": the ) at column 7 has no matching (; write \) for a literal )`,
    ],
  ],
  [
    'time-zones.yaml',
    [
      String.raw`time-zones.yaml:5:17 rules[0].timeWindow.timeZone: unknown time zone "Europe/Berln"; use an IANA name such as Europe/Berlin, America/New_York or UTC`,
      String.raw`time-zones.yaml:8:17 rules[1].condition.timeZone: unknown time zone "Mars/Olympus_Mons"; use an IANA name such as Europe/Berlin, America/New_York or UTC`,
    ],
  ],
  [
    'unknown-keys.yaml',
    [
      String.raw`unknown-keys.yaml:3:1 descripton: descripton is not a known field: did you mean "description"? (known fields: kind, name, description, mode, priority, match, exclude, rules, message, modifications, whileRunning)`,
      String.raw`unknown-keys.yaml:7:7 rules[0].timeWindow.alowed: alowed is not a known field: did you mean "allowed"? (known fields: timeZone, allowed, deny)`,
      String.raw`unknown-keys.yaml:11:7 rules[1].targets.perTyp: perTyp is not a known field: did you mean "perType"? (known fields: maxPerStep, maxTotal, perType, maxPercentage, requireMaximum, denyEmpty)`,
    ],
  ],
];

describe('a malformed policy document is refused with every problem at file:line:col', () => {
  test.each(EXPECTED)('%s', (file, expected) => {
    expect(problemsOf(file)).toEqual(expected);
  });

  test('every fixture file has its row in the table', () => {
    expect(readdirSync(DIR).sort()).toEqual(EXPECTED.map(([file]) => file).sort());
  });
});

describe('names that only look unusual load as written', () => {
  test.each([['münchen'], ['prod-москва'], ['Global Environment'], ['τεστ'], ['本番']])('%s', (name) => {
    const text = `kind: Policy\nname: plain-names\nrules:\n  - environments: { blocked: ["${name}"] }\n`;
    expect(loadBundle([{ file: 'p.yaml', text }], NOW)).toMatchObject({ ok: true });
  });
});

describe('an emptied policy file is refused, not read as no policies (fail closed)', () => {
  const policy = {
    file: 'keep.yaml',
    text: 'kind: Policy\nname: keep\nrules:\n  - environments: { blocked: [prod] }\n',
  };
  test.each([
    ['empty', ''],
    ['only a comment', '# blocked-environments, emptied by a bad merge\n'],
    ['only a document marker', '---\n'],
    ['only markers and blank lines', '---\n\n---\n'],
  ])('%s', (_what, text) => {
    const result = loadBundle([policy, { file: 'blocked.yaml', text }], NOW);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual([
      'blocked.yaml:1:1 the file holds no document (it is empty, or only comments): an emptied file would drop its policies without a word; restore it, or delete the file to remove them',
    ]);
  });
});
