// The regex a glob with several stars would compile to (glob-regex.ts): `*a*a*a*b` against a value of
// n `a`s, which misses, so the regex tries every split of the value between its stars. Sizes as the
// first argument, e.g. `backtrack.js 100,200,400`; each size is one test, timed in CPU seconds.
const regex = /^(?:[^]*?a[^]*?a[^]*?a[^]*?b)$/iu;
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};
const rows = [];
for (const n of (process.argv[2] ?? '100,200,400').split(',').map(Number)) {
  const t0 = cpu();
  regex.test('a'.repeat(n));
  rows.push(`${n} a's ${(cpu() - t0).toFixed(3)} s`);
}
console.log(`${process.version}: ${rows.join(', ')}`);
