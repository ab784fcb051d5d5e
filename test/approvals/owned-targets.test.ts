import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evalCommand } from '../../src/cli/commands/eval-command';
import { guardView } from '../../src/guard/guard-view';
import { judgeRunningRun } from '../../src/guard/judge-running-run';
import { decide } from '../../src/policy/engine/decide';
import type { Facts } from '../../src/policy/facts/facts';
import type { PreflightPayload, Target } from '../../src/payload/types';
import type { Decision } from '../../src/policy/core/decision';
import { scopeNeeds } from '../../src/replay/run-needs';
import { mintExceptions, type MintRequest } from '../../src/approvals/mint-exceptions';
import type { DeniedRun } from '../../src/approvals/denied-run';
import { NOW, loadProblems } from '../helpers/decide-harness';
import { bundleFrom } from '../helpers/bundle-from';
import { ROOT } from '../helpers/server-process';
import { attacking, hostTarget } from '../helpers/runs-on-targets';

/**
 * Consent that travels with the target (`match.ownedBy`, docs/policies.md#targets-owned-by-a-team):
 * the owners of a target keep a policy that applies to any team's run reaching it, and an exception
 * to it counts only when a member of the owning team approved it (facts.teams, as the Platform API
 * lists the members). Decisions are pure: the members are given as facts.
 */
const OWNED_BY = 'ownedBy: { team: CHECKOUT, attribute: k8s.label.team }';
const policy = (match = OWNED_BY, extra = '') =>
  `kind: Policy\nname: checkout-consent\nmatch: { ${match} }\n${extra}rules:\n  - actions: { blockedKinds: [ATTACK] }\nmessage: "{{reason}}"\n`;
const exception = (approvedBy: string | undefined, name = 'gameday') =>
  [
    'kind: Exception',
    `name: ${name}`,
    'policy: checkout-consent',
    'owner: jane@example.com',
    'reason: game day CHG-1',
    'expires: "2026-01-08T10:00:00Z"',
    ...(approvedBy === undefined ? [] : [`approvedBy: ${approvedBy}`]),
    'match: { teams: [SHOP] }',
    '',
  ].join('\n');

const pod = (name: string, attributes: Record<string, string>): Target => hostTarget(name, attributes);
const checkoutPod = pod('checkout-7d9f', { 'k8s.label.team': 'checkout', 'k8s.deployment': 'checkout-api' });
const cartPod = pod('cart-5c8d', { 'k8s.label.team': 'shop', 'k8s.deployment': 'cart' });
/** The spec example as a run of team SHOP attacking these targets. */
const shopRun = (...targets: Target[]) =>
  attacking(targets, (p) => {
    p.execution.teamKey = 'SHOP';
  });

const MAX = { username: 'ag1hb7ap-d299-47ab-998f-c2a53b433820', email: 'max@steadybit.com' };
const CHECKOUT_MEMBERS: Facts = {
  teams: { CHECKOUT: { members: [MAX, { username: 'kim', email: 'kim@example.com' }] } },
};

function decideWith(files: Record<string, string>, payload: PreflightPayload, facts: Facts = {}): Decision {
  return decide(bundleFrom(files, NOW), payload, facts, NOW, { decisionId: 'd-1', fullScan: true });
}
const resultOf = (d: Decision) => d.results.find((r) => r.policy === 'checkout-consent');

describe('match.ownedBy: which runs the owners policy applies to', () => {
  test('a run of another team reaching an owned target is denied, naming the owning team and the targets', () => {
    const d = decideWith({ 'p.yaml': policy() }, shopRun(cartPod, checkoutPod));
    expect(d.allowed).toBe(false);
    expect(resultOf(d)?.message).toBe(
      'step "com.steadybit.extension_container.stress_cpu" (steps[1]) runs com.steadybit.extension_container.stress_cpu, an action of kind ATTACK, which is blocked; this run of team SHOP reaches targets owned by team CHECKOUT (k8s.label.team): checkout-7d9f (k8s.label.team=checkout); an exception to this policy needs an approver from team CHECKOUT',
    );
  });

  test.each([
    ['the team key, ignoring case', OWNED_BY, [checkoutPod], 'deny'],
    ['no target of the team', OWNED_BY, [cartPod], 'skipped'],
    [
      'a mapping of values (exact)',
      'ownedBy: { team: CHECKOUT, attribute: k8s.deployment, values: [checkout-api, ledger] }',
      [checkoutPod],
      'deny',
    ],
    [
      'a mapping that lists none of the values',
      'ownedBy: { team: CHECKOUT, attribute: k8s.deployment, values: [Checkout-API] }',
      [checkoutPod],
      'skipped',
    ],
    [
      'a target without the attribute, whenMissing: notOwned',
      'ownedBy: { team: CHECKOUT, attribute: k8s.label.team, whenMissing: notOwned }',
      [pod('legacy-vm', {}), cartPod],
      'skipped',
    ],
  ])('%s', (_name, match, targets, result) => {
    expect(resultOf(decideWith({ 'p.yaml': policy(match) }, shopRun(...targets)))?.result).toBe(result);
  });

  test('the skip reason names the owners the run reaches and the team', () => {
    expect(resultOf(decideWith({ 'p.yaml': policy() }, shopRun(cartPod)))?.reasons).toEqual([
      "the targets' k8s.label.team shop not in match.ownedBy (team CHECKOUT)",
    ]);
  });

  test('applies whoever started the run, and goes with the other fields (AND)', () => {
    const files = { 'p.yaml': policy(`${OWNED_BY}, teams: [PAY]`) };
    expect(resultOf(decideWith(files, shopRun(checkoutPod)))?.result).toBe('skipped');
    const payRun = attacking([checkoutPod], (p) => {
      p.execution.teamKey = 'PAY';
    });
    expect(resultOf(decideWith(files, payRun))?.result).toBe('deny');
  });

  test('more than five owned targets: five are named, then a count', () => {
    const pods = Array.from({ length: 7 }, (_, i) => pod(`checkout-${i}`, { 'k8s.label.team': 'checkout' }));
    expect(resultOf(decideWith({ 'p.yaml': policy() }, shopRun(...pods)))?.message).toContain(
      'checkout-4 (k8s.label.team=checkout), and 2 more; an exception',
    );
  });

  describe('unknown owner data fails closed: the policy cannot decide', () => {
    test('a target that does not carry the attribute (whenMissing: deny, the default)', () => {
      const d = decideWith({ 'p.yaml': policy() }, shopRun(pod('legacy-vm', {}), cartPod));
      expect(d.allowed).toBe(false);
      expect(resultOf(d)?.reasons[0]).toBe(
        'cannot decide whether the run is in match.ownedBy (team CHECKOUT): target legacy-vm of step "com.steadybit.extension_container.stress_cpu" (steps[1]) carries no k8s.label.team (Steadybit sends only the attributes in the preflight webhook\'s targetAttributeIncludes; include k8s.label.team there), so whether the run reaches targets owned by team CHECKOUT is not known',
      );
    });

    test.each([
      ['lists none of its targets', (p: PreflightPayload) => delete p.execution.steps?.[1]?.targetExecutions],
      [
        'lists fewer targets than it expects',
        (p: PreflightPayload) => {
          const step = p.execution.steps?.[1];
          if (step) step.totalTargetCount = 3;
        },
      ],
    ])('a step that %s, whenMissing: notOwned too', (_name, change) => {
      const match = 'ownedBy: { team: CHECKOUT, attribute: k8s.label.team, whenMissing: notOwned }';
      const d = decideWith({ 'p.yaml': policy(match) }, attacking([cartPod], change));
      expect(d.allowed).toBe(false);
      expect(resultOf(d)?.findings?.[0]).toMatchObject({
        rule: 'match.ownedBy',
        undecidable: true,
        reason: expect.stringMatching(
          /^cannot decide whether the run is in match\.ownedBy \(team CHECKOUT\): step "com\.steadybit\.extension_container\.stress_cpu" \(steps\[1\]\) lists \d of its \S+( number of)? targets/,
        ),
      });
    });

    test('an owned target known elsewhere in the run decides it: the policy applies', () => {
      const d = decideWith({ 'p.yaml': policy() }, shopRun(pod('legacy-vm', {}), checkoutPod));
      expect(resultOf(d)?.findings?.map((f) => f.rule)).toEqual(['rules[0].actions']);
    });
  });
});

describe('exceptions to an owners policy need an approver from the owning team', () => {
  const files = (approvedBy: string) => ({ 'p.yaml': policy(), 'e.yaml': exception(approvedBy) });

  test.each([
    ['a member, by email (ignoring case)', 'Max@Steadybit.com'],
    ['a member, by username', MAX.username],
  ])('approved by %s: waived', (_name, approver) => {
    const d = decideWith(files(approver), shopRun(checkoutPod), CHECKOUT_MEMBERS);
    expect(d.allowed).toBe(true);
    expect(resultOf(d)).toMatchObject({ result: 'skipped', exception: 'gameday' });
  });

  test('approved by someone outside the team: denied, saying who must approve', () => {
    const d = decideWith(files('lead@shop.example.com'), shopRun(checkoutPod), CHECKOUT_MEMBERS);
    expect(d.allowed).toBe(false);
    expect(resultOf(d)?.message).toContain(
      '(exception "gameday" was approved by lead@shop.example.com, who is not a member of team CHECKOUT, which owns the targets this run reaches, so it does not waive this policy; ask a member of team CHECKOUT to approve it)',
    );
  });

  test.each([
    [
      'members not read (no Platform API)',
      {},
      'the members of Steadybit team CHECKOUT were not read (they come from the Steadybit Platform API: set STEADYBIT_URL)',
    ],
    ['members the Platform API could not give', { teams: { CHECKOUT: { unknown: 'HTTP 503' } } }, 'HTTP 503'],
    [
      'an email approver and a member listed without an email',
      { teams: { CHECKOUT: { members: [{ username: 'kim' }] } } },
      'max@steadybit.com is an email and a member of team CHECKOUT is listed without one',
    ],
  ])('%s: never waives', (_name, facts: Facts, why) => {
    const d = decideWith(files(MAX.email), shopRun(checkoutPod), facts);
    expect(d.allowed).toBe(false);
    expect(resultOf(d)?.reasons).toContain(
      `cannot tell whether max@steadybit.com, who approved exception "gameday", is a member of team CHECKOUT, which owns the targets this run reaches: ${why}; so it does not waive this policy`,
    );
  });

  test('an exception to a policy without ownedBy is not asked for the team', () => {
    const plain = policy('teams: [SHOP]');
    const d = decideWith({ 'p.yaml': plain, 'e.yaml': exception('lead@shop.example.com') }, shopRun(checkoutPod));
    expect(resultOf(d)).toMatchObject({ result: 'skipped', exception: 'gameday' });
  });

  test("the owning team's members are gathered only when such an exception exists, and replay reads them", () => {
    const need = { kind: 'team-members', team: 'CHECKOUT' };
    expect(bundleFrom({ 'p.yaml': policy() }, NOW).needs).not.toContainEqual(need);
    const withException = bundleFrom(files(MAX.email), NOW);
    expect(withException.needs).toContainEqual(need);
    expect(scopeNeeds(withException)).toContainEqual(need);
  });
});

describe('loading', () => {
  test('an exception to an owners policy without approvedBy is refused, saying who approves', () => {
    expect(loadProblems({ 'p.yaml': policy(), 'e.yaml': exception(undefined) })).toEqual([
      expect.stringContaining(
        'exception "gameday" has no approvedBy, but policy "checkout-consent" is kept by team CHECKOUT for the targets it owns (match.ownedBy): only a member of team CHECKOUT may approve it',
      ),
    ]);
  });

  test.each([
    [
      'in exclude',
      `kind: Policy\nname: p\nexclude: { ${OWNED_BY} }\nrules:\n  - actions: { blockedKinds: [ATTACK] }\n`,
    ],
    ['without attribute', policy('ownedBy: { team: CHECKOUT }')],
    ['with an empty mapping', policy('ownedBy: { team: CHECKOUT, attribute: k8s.deployment, values: [] }')],
    ['with whenMissing misspelt', policy('ownedBy: { team: CHECKOUT, attribute: k8s.label.team, whenMissing: allow }')],
    ['with a team key that is a glob', policy('ownedBy: { team: "CHECK*", attribute: k8s.label.team }')],
  ])('ownedBy %s is refused', (_name, yaml) => {
    expect(loadProblems({ 'p.yaml': yaml }).join('\n')).toMatch(/(exclude|match\.ownedBy)/);
    expect(() => bundleFrom({ 'p.yaml': yaml }, NOW)).toThrow();
  });

  test('an owning team one letter away from a team the set writes more often is warned', () => {
    const other = (name: string) =>
      `kind: Policy\nname: ${name}\nmatch: { teams: [CHECKOUT] }\nrules:\n  - actions: { blockedKinds: [ATTACK] }\n`;
    const typo = policy('ownedBy: { team: CHECKOTU, attribute: k8s.label.team }');
    expect(loadProblems({ 'p.yaml': typo, 'a.yaml': other('a'), 'b.yaml': other('b') }).join('\n')).toMatch(
      /p\.yaml:3:\d+ warning: match\.ownedBy\.team: team "CHECKOTU" is one letter away from "CHECKOUT"/,
    );
  });

  test("in an exception's match it is refused", () => {
    const yaml = exception(MAX.email).replace('match: { teams: [SHOP] }', `match: { ${OWNED_BY} }`);
    expect(() => bundleFrom({ 'p.yaml': policy(), 'e.yaml': yaml }, NOW)).toThrow(/ownedBy/);
  });
});

describe('preflight-gate exception for a run an owners policy denied', () => {
  const denied: DeniedRun = {
    origin: 'test',
    decisionId: '3f2a9c1e-0000-4000-8000-000000000001',
    at: NOW.toISOString(),
    message: 'Denied by 1 policy: [checkout-consent] ...',
    allowed: false,
    experimentKey: 'SHOP-7',
    environments: ['production'],
    createdBy: { email: 'jane@example.com' },
    denied: ['checkout-consent'],
  };
  const request: MintRequest = { expiresInMs: 7_200_000, expiresIn: '2h', reason: 'game day CHG-1' };
  const bundle = () => bundleFrom({ 'p.yaml': policy() }, NOW);

  test('refuses to mint without --approved-by, saying whose member must approve', () => {
    expect(() => mintExceptions(denied, request, bundle(), NOW)).toThrow(
      'policy "checkout-consent" is kept by team CHECKOUT for the targets it owns (match.ownedBy): give --approved-by <the username or email of the member of team CHECKOUT who approved it>',
    );
  });

  test('mints with the approver named', () => {
    const [minted] = mintExceptions(denied, { ...request, approvedBy: MAX.email }, bundle(), NOW);
    expect(minted).toMatchObject({ policy: 'checkout-consent', approvedBy: MAX.email });
  });
});

describe('preflight-gate eval on the shipped example gives the service answer', () => {
  const example = join(ROOT, 'examples', 'target-owners');
  const dir = mkdtempSync(join(tmpdir(), 'pg-owners-eval-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const evaluate = async (teams?: Facts['teams']) => {
    let file: string | undefined;
    if (teams !== undefined) writeFileSync((file = join(dir, 'teams.json')), JSON.stringify(teams));
    let out = '';
    await evalCommand(
      { payload: join(example, 'run.json'), dir: example, teams: file, format: 'json', now: NOW.toISOString() },
      {},
      (text) => {
        out += text;
      },
    );
    return JSON.parse(out) as { allowed: boolean; body: { message: string } };
  };

  test('--teams with the approver among the owners waives; without, no exception can count', async () => {
    expect((await evaluate({ CHECKOUT: { members: [MAX] } })).allowed).toBe(true);
    const without = await evaluate();
    expect(without.allowed).toBe(false);
    expect(without.body.message).toContain(
      'the members of Steadybit team CHECKOUT were not read (they come from the Steadybit Platform API: set STEADYBIT_URL)',
    );
  });
});

describe('while a run is in progress (whileRunning): the owners consent is read at every tick', () => {
  // An owners freeze declared mid-run, waived for SHOP by an exception a CHECKOUT member approved.
  const freeze = [
    'kind: Policy',
    'name: checkout-consent',
    `match: { ${OWNED_BY} }`,
    'whileRunning: true',
    'rules:',
    '  - timeWindow: { timeZone: UTC, deny: [{ name: checkout incident, start: "2026-01-05T09:00:00Z", end: "2026-01-05T12:00:00Z" }] }',
    '',
  ].join('\n');
  const view = () => guardView(bundleFrom({ 'p.yaml': freeze, 'e.yaml': exception(MAX.email) }, NOW));

  test("the approver's membership is gathered for the guard too", () => {
    expect(view().needs).toContainEqual({ kind: 'team-members', team: 'CHECKOUT' });
  });

  test('an approver in the team keeps the run going; one who left the team no longer does', () => {
    const run = shopRun(checkoutPod);
    expect(judgeRunningRun(view(), run, CHECKOUT_MEMBERS, NOW, 'd-1').stop).toBe(false);
    const left: Facts = { teams: { CHECKOUT: { members: [{ username: 'kim', email: 'kim@example.com' }] } } };
    const judged = judgeRunningRun(view(), run, left, NOW, 'd-2');
    expect(judged.stop).toBe(true);
    expect(judged.findings[0]?.reason).toContain('who is not a member of team CHECKOUT');
  });
});

test('ownedBy in an exclude or an exception says why it is only in a match', () => {
  const exclude = `kind: Policy\nname: p\nexclude: { ${OWNED_BY} }\nrules:\n  - actions: { blockedKinds: [ATTACK] }\n`;
  expect(loadProblems({ 'p.yaml': exclude }).join('\n')).toContain(
    "exclude.ownedBy: ownedBy is not a known field: it is only in a policy's match (in an exclude or an exception's match, a target without the attribute would let a run escape",
  );
});
