// fhir-validate's memo (src/clinical/fhir/validated.ts) on the feed: the node alone over the 28 ADT samples' transaction
// bundles, told that its `valid` output feeds fhir-deidentify (the feed's graph: no snapshot taken, deid copies its
// input) or told nothing (as before NodeContext.outputTargets: the snapshot, a JSON.stringify of the bundle, is taken).
// The two alternate pass by pass in one process; the best pass of each counts. Each pass gives the node a new object
// (a JSON copy, counted on both sides), as the feed's conversion does. `npx node bench/bundled.mjs fhir-validate-memo`.
import fs from 'node:fs';
import path from 'node:path';
import { hl7v2ParseNode } from '@/engine/nodes/hl7v2-parse.execute';
import { hl7v2ToFhirNode } from '@/engine/nodes/hl7v2-to-fhir.execute';
import { fhirValidateNode } from '@/engine/nodes/fhir-validate.execute';
import { testContext } from '../tests/support/engine/node-context';

const DIR = '/work/shared/data/hl7v2/messages';
const files = fs
  .readdirSync(DIR)
  .filter((f) => f.startsWith('ADT'))
  .sort();
const bundles: unknown[] = [];
for (const f of files) {
  const text = fs.readFileSync(path.join(DIR, f), 'utf8').replace(/\r?\n/g, '\r').trim();
  const ctx = testContext();
  const p = await hl7v2ParseNode.execute(ctx, { text }, hl7v2ParseNode.config.parse({}));
  const c = await hl7v2ToFhirNode.execute(ctx, { message: p.outputs.message }, hl7v2ToFhirNode.config.parse({ bundle_type: 'transaction' }));
  bundles.push(c.outputs.bundle);
}
const config = fhirValidateNode.config.parse({ expect: 'bundle' });
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
async function pass(targets: boolean): Promise<number> {
  const t = cpu();
  for (const b of bundles) {
    const copy = JSON.parse(JSON.stringify(b)); // a new object each time, as the feed's conversion gives
    const ctx = testContext();
    if (targets) ctx.outputTargets = () => ['fhir-deidentify'];
    await fhirValidateNode.execute(ctx, { resource: copy }, config);
  }
  return (cpu() - t) / bundles.length;
}
const best = { a: Infinity, b: Infinity };
for (let i = 0; i < 10; i++) {
  await pass(false);
  await pass(true);
}
for (let i = 0; i < 60; i++) {
  best.a = Math.min(best.a, await pass(false));
  best.b = Math.min(best.b, await pass(true));
}
console.log(`fhir-validate node, ${bundles.length} ADT bundles, best of 60 alternated passes (µs CPU a message, JSON copy of the input included in both):`);
console.log(
  `  memo snapshot taken (base) ${best.a.toFixed(0)}  not taken (only fhir-deidentify reads valid) ${best.b.toFixed(0)}  ratio ${(best.b / best.a).toFixed(3)}`,
);
