// Node 26: PolicyResultTally.add with slotOf as switches (the code) vs a Record table read with the two keys.
const { join } = require('node:path');
const B = join(__dirname, '../../.bench/build');
const { PolicyResultTally } = require(join(B, 'src/observability/policy-result-tally.js'));
const { loadPolicyDir } = require(join(B, 'src/policy/loading/load-policy-dir.js'));
const { decide } = require(join(B, 'src/policy/engine/decide.js'));
const { freshFacts } = require(join(B, 'test/helpers/policy-sets/fresh-facts.js'));
const { payloadVariants } = require(join(B, 'bench/payload-variants.js'));
const TABLE = {
  enforce: { pass: 0, deny: 1, warn: 2, audit: 3, skipped: -1 },
  warn: { pass: 4, deny: 5, warn: 6, audit: 7, skipped: -1 },
  audit: { pass: 8, deny: 9, warn: 10, audit: 11, skipped: -1 },
};
class TableTally extends PolicyResultTally {
  add(results) {
    for (const r of results) {
      const slot = TABLE[r.mode][r.result];
      if (slot < 0) continue;
      const offset = this.offsets.get(r.policy) ?? this.place(r.policy);
      this.table[offset + slot]++;
    }
  }
}
(async () => {
  const dir = process.argv[2];
  const bundle = loadPolicyDir(dir).bundle;
  const variants = payloadVariants('s');
  const states = await freshFacts(bundle, variants);
  const decisions = variants.map((v, i) => decide(bundle, v.payload, states[i], new Date(), { decisionId: 'b' }).results);
  console.log('results per decision', decisions.map((d) => d.length).join(','), 'modes', [...new Set(decisions.flat().map((r) => r.mode + ':' + r.result))].join(' '));
  const time = (T) => {
    const t = new T();
    const c0 = process.cpuUsage(); let n = 0; const end = Date.now() + 1500;
    while (Date.now() < end) for (let k = 0; k < 100; k++) for (const d of decisions) { t.add(d); n++; }
    const c = process.cpuUsage(c0); return ((c.user + c.system) * 1000) / n;
  };
  time(PolicyResultTally); time(TableTally);
  const a = [], b = [];
  for (let r = 0; r < 5; r++) { a.push(time(PolicyResultTally).toFixed(0)); b.push(time(TableTally).toFixed(0)); }
  console.log(`ns per add(): switch ${a.join(' ')} | table ${b.join(' ')}`);
})();
