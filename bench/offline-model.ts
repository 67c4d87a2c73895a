// The AI SDK's cost over the offline model (src/server/ai/offline): time to the first text delta and time of a
// whole call, streamText (reading textStream) against the baseline measured in the same run, reading the model's
// own doStream directly. Same prompt (a clinical note of ~90 words), one core.
// Run it with `npx node bench/bundled.mjs offline-model`, which bundles it.
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { streamText } from 'ai';
import { offlineModel } from '@/server/ai/offline/model';

const note = [
  'Patient is a 67 year-old male admitted on 2024-03-12 with chest pain and shortness of breath.',
  'History of hypertension and type 2 diabetes mellitus (ICD-10 E11.9). Denies fever.',
  'BP 150/95 mmHg, glucose 182 mg/dL, HbA1c 8.1 %. Started metformin 500 mg po bid and lisinopril 10 mg po daily.',
  'Plan: follow-up in 2 weeks with cardiology for stress test.',
].join(' ');
const model = offlineModel();
const options: LanguageModelV4CallOptions = { prompt: [{ role: 'user', content: [{ type: 'text', text: note }] }] };

/** [ms to first text delta, ms for the whole call] */
type Run = () => Promise<[number, number]>;

const direct: Run = async () => {
  const start = performance.now();
  let first = 0;
  const reader = (await model.doStream(options)).stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) if (!first && r.value.type === 'text-delta') first = performance.now() - start;
  return [first, performance.now() - start];
};
const sdk: Run = async () => {
  const start = performance.now();
  let first = 0;
  for await (const _d of streamText({ model, prompt: note }).textStream) if (!first) first = performance.now() - start;
  return [first, performance.now() - start];
};

const variants: [string, Run][] = [
  ['doStream (baseline)', direct],
  ['streamText', sdk],
];

async function pass(run: Run, calls: number): Promise<[number, number]> {
  let first = 0;
  let whole = 0;
  for (let i = 0; i < calls; i++) {
    const [f, w] = await run();
    first += f;
    whole += w;
  }
  return [first / calls, whole / calls];
}

const calls = Number(process.env.BENCH_CALLS ?? 300);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const best = new Map<string, [number, number]>();
for (const [, run] of variants) await pass(run, 50); // warm-up
for (let round = 0; round < rounds; round++) {
  for (const [label, run] of variants) {
    const [f, w] = await pass(run, calls);
    const b = best.get(label);
    best.set(label, b ? [Math.min(b[0], f), Math.min(b[1], w)] : [f, w]);
  }
}
console.log(`Offline model streaming, ${calls} calls per pass, best mean of ${rounds} passes, one core`);
const [baseFirst, baseWhole] = best.get('doStream (baseline)')!;
for (const [label] of variants) {
  const [f, w] = best.get(label)!;
  console.log(
    `  ${label.padEnd(20)} first delta ${f.toFixed(3).padStart(8)} ms (ratio ${(f / baseFirst).toFixed(2)})   whole call ${w.toFixed(3).padStart(8)} ms (ratio ${(w / baseWhole).toFixed(2)})   overhead ${(w - baseWhole).toFixed(3)} ms/call`,
  );
}
