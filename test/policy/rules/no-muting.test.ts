import { decide } from '../../../src/policy/engine/decide';
import { bundleFrom } from '../../helpers/bundle-from';
import { NOW, problemsOf, policyDocument, reasonsFor, withAttack } from '../../helpers/decide-harness';

const DOWNTIME = 'com.steadybit.extension_datadog.monitor.downtime';
const HTTP = 'com.steadybit.extension_http.check.fixed_amount';
const rule = `noMuting:
      mutes:
        - { what: a Datadog monitor downtime, actions: [${DOWNTIME}] }
        - { what: an Alertmanager silence, actions: [com.steadybit.extension_http.*], parameters: { url: "*/api/v2/silence*" } }`;
/** The spec example's attack step, turned into a step running `actionId` with `parameters`. */
const step = (actionId: string, parameters?: Record<string, unknown>, label?: string) =>
  withAttack((s) => {
    s.actionId = actionId;
    s.parameters = parameters;
    if (label) s.customLabel = label;
  });

describe('noMuting: no step mutes what the gate watches', () => {
  test.each([
    [
      'a Datadog downtime, named by its action id',
      step(DOWNTIME, { duration: 60000 }, 'Mute checkout'),
      `step "Mute checkout" (steps[1]) runs ${DOWNTIME}, which creates a Datadog monitor downtime: it mutes what the gate watches, so the gate could not see the run's harm`,
    ],
    [
      'an HTTP step posting a silence, told by its url',
      step(HTTP, { method: 'POST', url: 'http://am:9093/api/v2/silences' }),
      `step "${HTTP}" (steps[1]) runs ${HTTP} with url "http://am:9093/api/v2/silences", which creates an Alertmanager silence`,
    ],
    [
      'an action id in other case (globs ignore case)',
      step(DOWNTIME.toUpperCase()),
      'which creates a Datadog monitor downtime',
    ],
  ])('%s denies, saying the step and what it creates', (_name, payload, reason) => {
    const reasons = reasonsFor(rule, payload);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toContain(reason);
  });

  test.each([
    ['an HTTP step on another url', step(HTTP, { url: 'https://shop.example.com/health' })],
    ['an attack that mutes nothing', withAttack(() => undefined)],
    ['a step without an action id', step(DOWNTIME, undefined)],
  ])('%s passes', (name, payload) => {
    const steps = payload.execution.steps ?? [];
    if (name === 'a step without an action id') delete steps[1].actionId;
    expect(reasonsFor(rule, payload)).toEqual([]);
  });

  test('a parameter that is not a string is matched as its JSON', () => {
    const numbers =
      'noMuting: {mutes: [{what: a long downtime, actions: ["*downtime"], parameters: {duration: "36000??"}}]}';
    expect(reasonsFor(numbers, step(DOWNTIME, { duration: 3600000 }))[0]).toContain('with duration "3600000"');
    expect(reasonsFor(numbers, step(DOWNTIME, { duration: 60000 }))).toEqual([]);
  });

  test('a step of the actions that does not send the parameter cannot be told apart: it denies as undecidable', () => {
    const d = decide(bundleFrom({ 'p.yaml': policyDocument(rule) }, NOW), step(HTTP, { duration: 1000 }), {}, NOW, {
      decisionId: 'd-1',
    });
    expect(d.allowed).toBe(false);
    const [finding] = d.results.find((r) => r.policy === 'p')?.findings ?? [];
    expect(finding).toMatchObject({ undecidable: true });
    expect(d.message).toContain(
      `cannot decide: step "${HTTP}" (steps[1]) runs ${HTTP} but sends no url parameter, so whether it creates an Alertmanager silence (muting what the gate watches) is not known`,
    );
  });

  test('whenMissing: allow lets such a step through', () => {
    const allowing = rule.replace(
      'parameters: { url: "*/api/v2/silence*" }',
      'parameters: { url: "*/api/v2/silence*" }, whenMissing: allow',
    );
    expect(reasonsFor(allowing, step(HTTP, { duration: 1000 }))).toEqual([]);
  });

  test('an Exception naming the policy lets the run mute', () => {
    const files = {
      'p.yaml': policyDocument(rule, '', 'no-muting'),
      'x.yaml': `kind: Exception
name: gameday-downtime
policy: no-muting
owner: jane.doe@example.com
reason: Game day CHG-1 mutes the checkout monitor on purpose
expires: "2026-01-05T12:00:00Z"
match: { experimentKeys: ["${step(DOWNTIME).execution.experimentKey}"] }
`,
    };
    const d = decide(bundleFrom(files, NOW), step(DOWNTIME), {}, NOW, { decisionId: 'd-1' });
    expect(d.allowed).toBe(true);
    expect(d.results.find((r) => r.policy === 'no-muting')).toMatchObject({ result: 'skipped' });
  });
});

describe('noMuting: spec errors at load', () => {
  test.each([
    ['no mutes', 'noMuting: {}', 'mutes'],
    ['an empty list', 'noMuting: {mutes: []}', 'fewer than 1 items'],
    ['a way without what', 'noMuting: {mutes: [{actions: ["*downtime"]}]}', 'what'],
    ['a way without actions', 'noMuting: {mutes: [{what: a downtime}]}', 'actions'],
    ['a bad glob', 'noMuting: {mutes: [{what: a downtime, actions: ["[downtime"]}]}', 'glob'],
    ['an unknown key', 'noMuting: {mutes: [{what: a downtime, actions: ["*"], mode: x}]}', 'mode'],
    [
      'the same what twice',
      'noMuting: {mutes: [{what: a downtime, actions: ["a"]}, {what: A downtime, actions: ["b"]}]}',
      'is said by mutes[0] already',
    ],
  ])('%s', (_name, spec, message) => {
    const problems = problemsOf(policyDocument(spec));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.map((p) => p.message).join('\n')).toContain(message);
    expect(problems[0].file).toBe('policies/p.yaml');
  });
});
