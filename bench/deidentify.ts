// FHIR de-identification throughput on one core: the Safe Harbor rules (src/clinical/deid) over the Synthea
// sample (/work/shared/data/synthea-10: 7,160 resources, as one collection Bundle per patient plus the
// organizations, practitioners and locations alone), and over the 28 ADT sample messages of
// ../shared/data/hl7v2/messages converted to transaction bundles as the hl7v2-to-fhir node does (the MLLP
// feed's shape), once as they are and once as a feed meets them (4,000 messages, new resource ids in each: the
// pseudonym caches miss as they do on a live feed), each against a baseline measured in the same run that only
// copies each record (structuredClone) and walks every string of it. BENCH_ONLY=text runs the samples named so.
// Run it with `npx node bench/bundled.mjs deidentify`, which bundles it.
import { randomUUID } from 'node:crypto';
import { deidentifyFhir } from '@/clinical/deid/fhir';
import { adtBundles, syntheaRecords } from '../tests/support/clinical/deid';

type Json = Record<string, unknown>;

const adt = adtBundles();
/**
 * The ADT bundles as a live feed meets them: every message names its resources by new UUIDs (the converter derives
 * them from the message's control id), so the pseudonyms of references and fullUrls are computed, not found in the
 * caches of keyed.ts and fhir-actions.ts that the same 28 bundles over and over would hit. 4,000 messages of ~43
 * resources name more UUIDs than those caches hold (100,000), so every pass computes them again.
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const FEED_MESSAGES = 4_000;
const feed = Array.from({ length: FEED_MESSAGES }, (_, i) => {
  const renamed = new Map<string, string>();
  const text = JSON.stringify(adt[i % adt.length]).replace(UUID, (u) => renamed.get(u) ?? (renamed.set(u, randomUUID()), renamed.get(u)!));
  return JSON.parse(text) as Json;
});
const samples: [string, Json[]][] = [
  ['Synthea records', syntheaRecords()],
  [`ADT transaction bundles (${adt.length} samples)`, adt],
  [`ADT transaction bundles as a feed (${FEED_MESSAGES} messages, new resource ids in each)`, feed],
];
const key = new Uint8Array(32).fill(7);

let sink = 0;
function walk(v: unknown): void {
  if (typeof v === 'string') sink += v.length;
  else if (Array.isArray(v)) v.forEach(walk);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
}

const variants: [string, (r: Json) => void][] = [
  ['copy + walk (baseline)', (r) => walk(structuredClone(r))],
  ['deidentifyFhir', (r) => void (sink += deidentifyFhir(r, { key }).resources)],
];

const count = (records: Json[]) => records.reduce((n, r) => n + (r.resourceType === 'Bundle' ? (r.entry as unknown[]).length : 1), 0);

/** Resources per second over `records`, repeated until `ms` have passed (the ADT sample is small). */
function pass(records: Json[], resources: number, f: (r: Json) => void, ms: number): number {
  let done = 0;
  const start = performance.now();
  let now = start;
  do {
    for (const r of records) f(r);
    done += resources;
    now = performance.now();
  } while (now - start < ms);
  return (done * 1000) / (now - start);
}

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const ms = Number(process.env.BENCH_MS ?? 1000);
console.log(`FHIR de-identification (Safe Harbor preset), one core, best of ${rounds} rounds of at least ${ms} ms`);
for (const [sample, records] of samples.filter(([s]) => !process.env.BENCH_ONLY || s.includes(process.env.BENCH_ONLY))) {
  const resources = count(records);
  for (const [, f] of variants) pass(records, resources, f, 200); // warm-up
  const best = new Map<string, number>();
  for (let round = 0; round < rounds; round++)
    for (const [label, f] of variants) best.set(label, Math.max(best.get(label) ?? 0, pass(records, resources, f, ms)));
  console.log(`${sample}: ${resources} resources in ${records.length} records`);
  const base = best.get('copy + walk (baseline)')!;
  for (const [label] of variants) {
    const r = best.get(label)!;
    console.log(`  ${label.padEnd(24)} ${Math.round(r).toLocaleString('en-US').padStart(9)} resources/s   ratio to baseline ${(r / base).toFixed(3)}`);
  }
}
if (sink < 0) console.log(sink);
