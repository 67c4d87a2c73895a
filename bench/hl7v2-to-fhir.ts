// HL7 v2 → FHIR R4 conversions per second on one core, over the sample messages of ../shared/data/hl7v2/messages
// (the 69 of every type): `convertMessage` on already parsed messages, and parse + convert from text, against the
// parse alone measured in the same run, interleaved (these machines are noisy, so the ratio is the stable figure).
// Run it with `npx node bench/bundled.mjs hl7v2-to-fhir`, which bundles it as production code is.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseMessage } from '@/clinical/hl7v2';
import { convertMessage } from '@/clinical/hl7v2-fhir';

const dir = path.resolve(process.env.BENCH_ROOT ?? process.cwd(), '../shared/data/hl7v2/messages');
const texts = readdirSync(dir)
  .filter((f) => f.endsWith('.hl7'))
  .sort()
  .map((f) => readFileSync(path.join(dir, f), 'utf8'));
const messages = texts.map((t) => parseMessage(t));
const resources = messages.reduce((n, m) => n + (convertMessage(m).bundle.entry?.length ?? 0), 0);

let sink = 0;
function rate(f: (i: number) => unknown, ms: number): number {
  let done = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < texts.length; i++) if (f(i) === undefined) sink++;
    done += texts.length;
    now = performance.now();
  }
  return (done * 1000) / (now - start);
}

const variants: [string, (i: number) => unknown][] = [
  ['parse only (baseline)', (i) => parseMessage(texts[i]!)],
  ['convert (parsed input)', (i) => convertMessage(messages[i]!)],
  ['parse + convert', (i) => convertMessage(parseMessage(texts[i]!))],
];
const ms = Number(process.env.BENCH_MS ?? 1500);
for (const [, f] of variants) rate(f, 300); // warm-up
const best = new Map<string, number>();
for (let round = 0; round < 5; round++) {
  for (const [label, f] of variants) best.set(label, Math.max(best.get(label) ?? 0, rate(f, ms)));
}
const base = best.get('parse only (baseline)')!;
console.log(
  `HL7 v2 → FHIR R4, ${texts.length} sample messages (${(resources / texts.length).toFixed(1)} resources per bundle on average), one core, best of 5 rounds of ${ms} ms`,
);
for (const [label] of variants) {
  const r = best.get(label)!;
  console.log(
    `  ${label.padEnd(24)} ${Math.round(r).toLocaleString('en-US').padStart(9)} messages/s  ${Math.round((r * resources) / texts.length)
      .toLocaleString('en-US')
      .padStart(10)} resources/s   ratio to parse ${(r / base).toFixed(2)}`,
  );
}
if (sink < 0) console.log(sink);
