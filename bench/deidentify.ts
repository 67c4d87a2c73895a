// FHIR de-identification throughput on one core: the Safe Harbor rules (src/clinical/deid) over the Synthea
// sample (/work/shared/data/synthea-10: 7,160 resources, as one collection Bundle per patient plus the
// organizations, practitioners and locations alone), against a baseline measured in the same run that only
// copies each record (structuredClone, the first thing de-identification does) and walks every string of it.
// Run it with `npx node bench/bundled.mjs deidentify`, which bundles it.
import { deidentifyFhir } from '@/clinical/deid/fhir';
import { syntheaRecords } from '@/clinical/deid/test-support';

const records = syntheaRecords();
const key = new Uint8Array(32).fill(7);
const resources = records.reduce((n, r) => n + (r.resourceType === 'Bundle' ? (r.entry as unknown[]).length : 1), 0);

let sink = 0;
function walk(v: unknown): void {
  if (typeof v === 'string') sink += v.length;
  else if (Array.isArray(v)) v.forEach(walk);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
}

const variants: [string, (r: Record<string, unknown>) => void][] = [
  ['copy + walk (baseline)', (r) => walk(structuredClone(r))],
  ['deidentifyFhir', (r) => void (sink += deidentifyFhir(r, { key }).resources)],
];

function pass(f: (r: Record<string, unknown>) => void): number {
  const start = performance.now();
  for (const r of records) f(r);
  return (resources * 1000) / (performance.now() - start);
}

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const best = new Map<string, number>();
for (const [label, f] of variants) pass(f); // warm-up
for (let round = 0; round < rounds; round++) for (const [label, f] of variants) best.set(label, Math.max(best.get(label) ?? 0, pass(f)));
console.log(`FHIR de-identification (Safe Harbor preset), ${resources} Synthea resources in ${records.length} records, one core, best of ${rounds} passes`);
const base = best.get('copy + walk (baseline)')!;
for (const [label] of variants) {
  const r = best.get(label)!;
  console.log(`  ${label.padEnd(24)} ${Math.round(r).toLocaleString('en-US').padStart(9)} resources/s   ratio to baseline ${(r / base).toFixed(3)}`);
}
if (sink < 0) console.log(sink);
