// HL7 v2 parse throughput on one core: our parser (src/clinical/hl7v2) over the 69 sample messages, as the
// files are (byte-order marks, LF line ends), against a naive parser that splits on the usual delimiters
// (segments, fields, repetitions, components, sub-components) with no BOM, MSH, escape or error handling,
// and the same naive split stopped at fields, measured in the same run, interleaved. The value keeps each
// field's raw text (components are split when read), so "+ full tree" and "+ 7 paths" show what reading
// costs on top. Run it with `npx node bench/bundled.mjs hl7v2-parse`, which bundles it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getAll, parseHl7v2, splitField, type Hl7v2Message } from '@/clinical/hl7v2';

const dir = path.resolve(process.env.BENCH_ROOT ?? process.cwd(), '../shared/data/hl7v2/messages');
const texts = readdirSync(dir)
  .filter((f) => f.endsWith('.hl7'))
  .sort()
  .map((f) => readFileSync(path.join(dir, f), 'utf8'));

/** The naive parser stopped at fields: what any parser that lists the fields must at least do. */
function naiveFields(text: string): string[][] {
  return text
    .split(/\r\n|\r|\n/)
    .filter((line) => line !== '')
    .map((line) => line.split('|'));
}

function naive(text: string): string[][][][][] {
  return text
    .split(/\r\n|\r|\n/)
    .filter((line) => line !== '')
    .map((line) => line.split('|').map((f) => f.split('~').map((r) => r.split('^').map((c) => c.split('&')))));
}

function ours(text: string): Hl7v2Message {
  const r = parseHl7v2(text);
  if (!r.ok) throw new Error('a sample did not parse');
  return r.value as Hl7v2Message;
}

/** Ours, then every field split into repetitions/components/sub-components: the naive parser's full tree. */
function oursFullTree(text: string): number {
  const m = ours(text);
  let n = 0;
  for (const s of m.segments) for (const f of s.fields) n += splitField(f, m.delimiters).length;
  return n;
}

/** Ours, then what a converter reads: patient ids, name, birth date, sex, class, observation values. */
function oursAndRead(text: string): number {
  const m = ours(text);
  let n = 0;
  for (const p of ['PID-3.1', 'PID-5.1', 'PID-5.2', 'PID-7', 'PID-8', 'PV1-2', 'OBX-5']) n += getAll(m, p).length;
  return n;
}

let sink = 0;
function rate(f: (text: string) => unknown, ms: number): number {
  let messages = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (const t of texts) {
      const v = f(t);
      if (v === undefined) sink++;
    }
    messages += texts.length;
    now = performance.now();
  }
  return (messages * 1000) / (now - start);
}

const variants: [string, (text: string) => unknown][] = [
  ['naive split', naive],
  ['naive split to fields', naiveFields],
  ['parseHl7v2', ours],
  ['parseHl7v2 + full tree', oursFullTree],
  ['parseHl7v2 + 7 paths', oursAndRead],
];
const ms = Number(process.env.BENCH_MS ?? 1500);
for (const [, f] of variants) rate(f, 300); // warm-up
const best = new Map<string, number>();
for (let round = 0; round < 5; round++) {
  for (const [label, f] of variants) best.set(label, Math.max(best.get(label) ?? 0, rate(f, ms)));
}
const bytes = texts.reduce((n, t) => n + t.length, 0);
const base = best.get('naive split')!;
console.log(
  `HL7 v2 parse, ${texts.length} sample messages (${Math.round(bytes / texts.length)} characters on average), one core, best of 5 rounds of ${ms} ms`,
);
const fieldsBase = best.get('naive split to fields')!;
for (const [label] of variants) {
  const r = best.get(label)!;
  console.log(
    `  ${label.padEnd(24)} ${Math.round(r).toLocaleString('en-US').padStart(9)} messages/s  ${((r * bytes) / texts.length / 1e6).toFixed(1).padStart(6)} MB/s   ratio to naive ${(r / base).toFixed(2).padStart(6)}, to naive-to-fields ${(r / fieldsBase).toFixed(2)}`,
  );
}
const target = best.get('parseHl7v2')!;
console.log(`target (issue 7): ≥ 50,000 messages/s and ratio ≥ 0.5 → ${target >= 50_000 && target / base >= 0.5 ? 'met' : 'NOT met'}`);
if (sink < 0) console.log(sink);
