import { diffSets } from '../../src/prove/analysis';
import { NOW, setDirs, setOf } from './prove-sets';

// Where diff cannot tell whether a changed rule's classes are decided alike (a rule beyond the
// analysis may decide them), its unknown line names the changed rule and the policies that deny there.
describe('diff: what keeps an answer unknown is named', () => {
  const dirs = setDirs();
  afterAll(() => dirs.cleanup());
  const HELD = `kind: Policy
name: held-by-condition
match: { environments: [payments-prod] }
rules:
  - condition: { deny: true, reason: never in payments-prod }
`;
  const blocked = (envs: string) => `kind: Policy\nname: blocked\nrules:\n  - environments: { blocked: [${envs}] }\n`;

  test('classes the whole sets decide alike name the changed rule and the policies that still deny them', () => {
    const base = setOf(dirs.write({ 'a.yaml': blocked('payments-prod, staging'), 'b.yaml': HELD }));
    const proposed = setOf(dirs.write({ 'a.yaml': blocked('staging'), 'b.yaml': HELD }));
    const r = diffSets(base, proposed, NOW);
    expect(r.witnesses).toEqual([]);
    expect(r.unknown).toContainEqual(
      expect.stringMatching(
        /class\(es\) differ under the analysed rules but not under the whole sets: a rule beyond the analysis decides them \(where blocked rules\[0\]\.environments decides, denied by held-by-condition\)$/,
      ),
    );
  });
});
