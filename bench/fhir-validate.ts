// FHIR R4 validations per second on one core: the compiled validator (src/clinical/fhir/compiled, what the
// fhir-validate and fhir-write nodes run) against @medplum/core's validator over the same records in the same run,
// interleaved round by round (these machines are noisy: the ratio is the stable figure). Records: the Synthea sample
// as a system sends it (one collection Bundle per patient, the organizations, practitioners and locations alone) and
// the 69 sample HL7 v2 messages converted by our hl7v2-to-fhir into transaction Bundles (the MLLP feed's shape).
// Variants:
//  - `@medplum/core validateResource`: its validator alone (structure, cardinality, types, invariants; no codes of
//    required bindings, no invariants of the resources inside a bundle) — the baseline of the target (≥ 10×);
//  - `reference validateFhir`: what the nodes ran before (the above + required codes + the nested invariants),
//    the same checks as the compiled one;
//  - `compiled validateFhir`: the nodes' validation now.
// Writes bench/results/fhir-validate.json. Run it with `npx node bench/bundled.mjs fhir-validate`.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { OperationOutcomeError, validateResource } from '@medplum/core';
import type { Resource } from '@medplum/fhirtypes';
import { syntheaRecords } from '../tests/support/clinical/deid';
import { convertedSamples } from '../tests/support/clinical/fhir';
import { indexR4, validateFhir, validateFhirReference } from '@/clinical/fhir/validate';

type Json = Record<string, unknown>;

indexR4();
const samples: [string, Json[]][] = [
  ['Synthea records', syntheaRecords()],
  ['HL7 v2 samples converted (transaction bundles)', convertedSamples('transaction').map(([, b]) => b as unknown as Json)],
];

let sink = 0;
const variants: [string, (r: Json) => void][] = [
  [
    '@medplum/core validateResource',
    (r) => {
      try {
        sink += validateResource(r as unknown as Resource).length;
      } catch (e) {
        if (!(e instanceof OperationOutcomeError)) throw e;
        sink += e.outcome.issue?.length ?? 0;
      }
    },
  ],
  ['reference validateFhir', (r) => void (sink += validateFhirReference(r).length)],
  ['compiled validateFhir', (r) => void (sink += validateFhir(r).length)],
];
const BASELINE = variants[0]![0];
const count = (records: Json[]) => records.reduce((n, r) => n + (r.resourceType === 'Bundle' ? ((r.entry as unknown[] | undefined)?.length ?? 0) : 1), 0);

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Records validated per second of this process's CPU time over `records`, repeated until `ms` of CPU have passed:
 * on a machine shared by others, the time a run waits for a core says nothing of the validator.
 */
function pass(records: Json[], f: (r: Json) => void, ms: number): number {
  let done = 0;
  const start = cpu();
  let now = start;
  do {
    for (const r of records) f(r);
    done += records.length;
    now = cpu();
  } while (now - start < ms);
  return (done * 1000) / (now - start);
}

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const ms = Number(process.env.BENCH_MS ?? 1500);
console.log(`FHIR R4 validation, one core, best of ${rounds} rounds of at least ${ms} ms of CPU time, the variants interleaved`);
const results: Json[] = [];
for (const [sample, records] of samples) {
  const resources = count(records);
  for (const [, f] of variants) pass(records, f, 300); // warm-up (the definitions load, the plans compile)
  const best = new Map<string, number>();
  for (let round = 0; round < rounds; round++) for (const [label, f] of variants) best.set(label, Math.max(best.get(label) ?? 0, pass(records, f, ms)));
  console.log(`${sample}: ${records.length} records, ${resources} resources`);
  const base = best.get(BASELINE)!;
  const reference = best.get('reference validateFhir')!;
  const rows = variants.map(([label]) => {
    const perSecond = best.get(label)!;
    console.log(
      `  ${label.padEnd(32)} ${perSecond.toFixed(1).padStart(8)} validations per CPU second ` +
        `${Math.round((perSecond * resources) / records.length)
          .toLocaleString('en-US')
          .padStart(8)} resources/s` +
        `   × validateResource ${(perSecond / base).toFixed(2)}   × reference ${(perSecond / reference).toFixed(2)}`,
    );
    const resourcesPerSecond = (perSecond * resources) / records.length;
    const ratios = { ratioToValidateResource: perSecond / base, ratioToReference: perSecond / reference };
    return { variant: label, validationsPerSecond: perSecond, resourcesPerSecond, ...ratios };
  });
  results.push({ sample, records: records.length, resources, variants: rows });
}
const root = process.env.BENCH_ROOT ?? process.cwd();
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
const out = path.join(root, 'bench/results/fhir-validate.json');
writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), rounds, ms, results }, null, 2)}\n`);
console.log(`written to ${path.relative(root, out)}`);
if (sink < 0) console.log(sink);
