// Node 26: `{ ...x, more }` against the same object written field by field, as policyValues (evaluate-policy.ts) and combine's decision do.
const base = { experimentKey: 'ADM-12', team: 'ADM', environment: 'prod', executionId: '42', decisionId: 'd-1', revision: 'r1', now: '2026-01-01T00:00:00.000Z' };
const fields = (b, p) => ({ experimentKey: b.experimentKey, team: b.team, environment: b.environment, executionId: b.executionId, decisionId: b.decisionId, revision: b.revision, now: b.now, policy: p });
const spread = (b, p) => ({ ...b, policy: p });
const meta = { id: 'd', revision: 'r', evaluatedAt: 'now' }; const results = []; const outOfScope = 3;
const dFields = (allowed, message, m, c) => ({ id: meta.id, revision: meta.revision, evaluatedAt: meta.evaluatedAt, results, outOfScope, allowed, message, modifications: m, conflicts: c });
const dBase = { id: meta.id, revision: meta.revision, evaluatedAt: meta.evaluatedAt, results, outOfScope };
const dSpread = (allowed, message, m, c) => ({ ...dBase, allowed, message, modifications: m, conflicts: c });
let sink;
const time = (f, args) => { const c0 = process.cpuUsage(); const N = Number(process.env.N ?? 5e6); for (let i = 0; i < N; i++) { sink = f(...args); sink.values = i; } const c = process.cpuUsage(c0); return ((c.user + c.system) * 1000) / N; };
const runs = { fields: [], spread: [], dFields: [], dSpread: [] };
for (let r = 0; r < 6; r++) {
  runs.fields.push(time(fields, [base, 'p'])); runs.spread.push(time(spread, [base, 'p']));
  runs.dFields.push(time(dFields, [true, 'm', [], []])); runs.dSpread.push(time(dSpread, [true, 'm', [], []]));
}
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1].toFixed(1);
console.log(`ns per object: template values field by field ${med(runs.fields)}, spread ${med(runs.spread)}; decision field by field ${med(runs.dFields)}, spread ${med(runs.dSpread)}`);
