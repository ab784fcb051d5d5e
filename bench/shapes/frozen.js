// Element loads from a frozen vs a plain array (assemble-bundle.ts, run-scopes.ts), and for...of over a
// shared frozen empty array with and without a length guard (evaluate-policy.ts checkRules).
const N = Number(process.env.N ?? 2e7);
const objs = Array.from({ length: 10000 }, (_, i) => ({ name: `p${i}`, mode: 'enforce', rules: [] }));
const plain = [...objs]; const frozen = Object.freeze([...objs]);
const positions = Array.from({ length: 42 }, (_, i) => (i * 233) % 10000);
function readAll(list) { let s = 0; for (let k = 0; k < positions.length; k++) s += list[positions[k]].name.length; return s; }
const EMPTY = Object.freeze([]); const someFound = Object.freeze([{ reason: 'x' }]);
const founds = Array.from({ length: 64 }, (_, i) => (i % 16 === 0 ? someFound : EMPTY));
function guarded() { let n = 0; for (let k = 0; k < founds.length; k++) { const found = founds[k]; if (found.length > 0) for (const v of found) n += v.reason.length; } return n; }
function unguarded() { let n = 0; for (let k = 0; k < founds.length; k++) { const found = founds[k]; for (const v of found) n += v.reason.length; } return n; }
let sink = 0;
const time = (f, arg, reps) => { const c0 = process.cpuUsage(); for (let i = 0; i < reps; i++) sink += f(arg); const c = process.cpuUsage(c0); return ((c.user + c.system) * 1000) / reps; };
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1].toFixed(1);
const r = { plain: [], frozen: [], guarded: [], unguarded: [] };
for (let i = 0; i < 7; i++) {
  r.plain.push(time(readAll, plain, N / 42)); r.frozen.push(time(readAll, frozen, N / 42));
  r.guarded.push(time(guarded, 0, N / 64)); r.unguarded.push(time(unguarded, 0, N / 64));
}
console.log(`${process.version}: ns per 42 candidate loads: plain ${med(r.plain)}, frozen ${med(r.frozen)}; ns per 64 rules' findings: length guard ${med(r.guarded)}, for...of alone ${med(r.unguarded)}`);
