// Counting the `"` of a payload's strings (duplicate-keys.ts quotesIn): String#indexOf against a
// charCodeAt loop, over strings like a big run's attribute keys and values (ids, names, images).
const N = Number(process.env.N ?? 2e6);
const strings = [];
for (let i = 0; i < 1000; i++) {
  const hex = ((i * 2654435761) >>> 0).toString(16).padStart(8, '0');
  strings.push('container.id', hex.repeat(8), `shop-service-${i % 97}-${i}`, `shop/shop-service-${i % 97}:1.${i % 40}.${i % 7}`);
  if (i % 50 === 0) strings.push(`a "quoted" value ${i}`);
}
function byIndexOf(s) {
  let n = 0;
  for (let at = s.indexOf('"'); at !== -1; at = s.indexOf('"', at + 1)) n++;
  return n;
}
function byCharCode(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 34) n++;
  return n;
}
let sink = 0;
const time = (f) => {
  const c0 = process.cpuUsage();
  for (let r = 0; r < N / strings.length; r++) for (let k = 0; k < strings.length; k++) sink += f(strings[k]);
  const c = process.cpuUsage(c0);
  return ((c.user + c.system) * 1000) / N;
};
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1].toFixed(1);
const r = { indexOf: [], charCodeAt: [] };
for (let i = 0; i < 7; i++) {
  r.indexOf.push(time(byIndexOf));
  r.charCodeAt.push(time(byCharCode));
}
console.log(`${process.version}: ns per string: indexOf ${med(r.indexOf)}, charCodeAt loop ${med(r.charCodeAt)} (${sink > 0 ? 'ok' : ''})`);
