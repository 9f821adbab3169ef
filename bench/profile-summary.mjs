// Summarises a V8 .cpuprofile (node --cpu-prof): self time by package and by function.
//   node bench/profile-summary.mjs bench/results/CPU….cpuprofile [top]
import { readFileSync } from 'node:fs';

const [file, top = '30'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);

function packageOf(url) {
  if (url === '') return '(native/idle)';
  const match = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1];
  if (url.startsWith('node:')) return 'node core';
  if (url.includes('/dist/src/')) return 'service (dist/src)';
  return url;
}

const packages = new Map();
const functions = new Map();
for (const [id, time] of self) {
  const { callFrame } = byId.get(id);
  const pkg = packageOf(callFrame.url);
  packages.set(pkg, (packages.get(pkg) ?? 0) + time);
  const name = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/.*node_modules\//, '')}:${callFrame.lineNumber + 1}`;
  functions.set(name, (functions.get(name) ?? 0) + time);
}
const show = (map) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(top))
    .map(([name, time]) => `${((100 * time) / total).toFixed(1).padStart(5)}%  ${name}`)
    .join('\n');
console.log(
  `total ${(total / 1e6).toFixed(1)} s sampled\n\nby package:\n${show(packages)}\n\nby function:\n${show(functions)}`,
);
