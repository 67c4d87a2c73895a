// Converts every HL7 v2 sample that has an expected bundle (../shared/data/hl7v2/expected-fhir, made by the
// Microsoft FHIR-Converter) and reports, per message and overall, how many compared facts agree (see
// src/clinical/hl7v2-fhir/compare.ts for what is compared). `npx tsx scripts/compare-hl7-fhir.ts` prints a
// table (types: resource types whose count agrees; facts: every compared fact); `--json` prints the figures as
// JSON; `--verbose` lists, per fact that disagrees, the values the reference has that we lack and those we add.
// A directory given on the command line (with `messages/*.hl7` and `expected-fhir/*.json`, the layout of the
// shared samples) is compared instead: a held-out set of messages the mapping was not tuned on, e.g. the
// FHIR-Converter's other HL7 v2 test messages and expected bundles copied locally (never committed here).
import path from 'node:path';
import { misses } from '../src/clinical/hl7v2-fhir/compare';
import { compareSamples } from '../src/clinical/hl7v2-fhir/samples';

const argv = process.argv.slice(2);
const args = new Set(argv.filter((a) => a.startsWith('--')));
const dir = argv.find((a) => !a.startsWith('--'));
const report = dir ? compareSamples(path.resolve(dir)) : compareSamples();

if (args.has('--json')) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const pct = (r: number) => `${(r * 100).toFixed(1)}%`;
  console.log(`${'message'.padEnd(40)} ${'types'.padStart(6)} ${'agree'.padStart(6)} ${'facts'.padStart(6)} ${'figure'.padStart(7)}  disagreeing facts`);
  for (const m of report.messages) {
    const off = m.comparison.facts.filter((f) => f.agree < f.total).map((f) => f.fact);
    const counts = m.comparison.facts.filter((f) => f.fact.startsWith('count '));
    const types = `${counts.filter((f) => f.agree).length}/${counts.length}`;
    console.log(
      `${m.name.padEnd(40)} ${types.padStart(6)} ${String(m.comparison.agree).padStart(6)} ${String(m.comparison.total).padStart(6)} ${pct(m.comparison.ratio).padStart(7)}  ${off.join(', ')}`,
    );
    if (args.has('--verbose')) for (const line of misses(m.comparison)) console.log(`    ${line}`);
  }
  console.log('');
  console.log('by message type:');
  for (const [type, t] of Object.entries(report.byType).sort((a, b) => a[1].ratio - b[1].ratio)) {
    console.log(
      `  ${type.padEnd(6)} ${String(t.messages).padStart(3)} messages  ${String(t.agree).padStart(5)}/${String(t.total).padEnd(5)} ${pct(t.ratio).padStart(7)}`,
    );
  }
  console.log('');
  console.log('by fact:');
  for (const [fact, t] of Object.entries(report.byFact).sort((a, b) => a[1].ratio - b[1].ratio)) {
    console.log(`  ${fact.padEnd(32)} ${String(t.agree).padStart(5)}/${String(t.total).padEnd(5)} ${pct(t.ratio).padStart(7)}`);
  }
  console.log('');
  console.log(
    `not compared (types of the expected bundles outside the key types): ${Object.entries(report.notCompared)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')}`,
  );
  const links =
    Object.entries(report.notComparedLinks)
      .map(([l, n]) => `${l} ${n}`)
      .join(', ') || 'none';
  console.log(`not compared (our links of elements the reference fills in no message, see NOT_MAPPED_BY_REFERENCE): ${links}`);
  console.log(`overall: ${report.agree} of ${report.total} facts agree = ${pct(report.ratio)} over ${report.messages.length} messages`);
}
