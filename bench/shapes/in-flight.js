// Node 26: a long-lived Set with one add and one delete per "request" vs InFlight's reused slots,
// each request a ~3.5 KB graph kept while 10 are in flight. Counts major GCs and the old space left.
const { InFlight } = require('../../.bench/build/src/http/in-flight.js');
const { PerformanceObserver, constants } = require('node:perf_hooks');
const v8 = require('node:v8');
const mode = process.argv[2];
let major = 0, minor = 0;
new PerformanceObserver((l) => { for (const e of l.getEntries()) { if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++; else if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MINOR) minor++; } }).observe({ entryTypes: ['gc'] });
const N = 400_000;
const request = (i) => ({ id: i, headers: Array.from({ length: 20 }, (_, k) => `header-${k}: value ${i} ${k}`), body: 'x'.repeat(2000) + i });
(async () => {
  const c0 = process.cpuUsage();
  const ring = [];
  if (mode === 'set') {
    const s = new Set();
    for (let i = 0; i < N; i++) { const r = request(i); s.add(r); ring.push(r); if (ring.length > 10) s.delete(ring.shift()); if (i % 1000 === 0) await new Promise(setImmediate); }
  } else {
    const f = new InFlight();
    for (let i = 0; i < N; i++) { const r = request(i); ring.push(f.add(r)); if (ring.length > 10) ring.shift()(); if (i % 1000 === 0) await new Promise(setImmediate); }
  }
  await new Promise(setImmediate);
  const c = process.cpuUsage(c0);
  const old = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space');
  console.log(`${mode.padEnd(5)} cpu ${((c.user + c.system) / 1000).toFixed(0)} ms, major GCs ${major}, minor ${minor}, old space used ${(old.space_used_size / 2 ** 20).toFixed(1)} MB, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
})();
