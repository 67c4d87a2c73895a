// Agent chat (issue 9): time to the first SSE event and time of a whole chat turn on `clinflow/offline`, through
// the service path (startTurn on an in-memory PGlite runtime: agent and history read, user message written, tools
// built for the request, the model run, answer and model call saved; consumed as SSE bytes from toEventStream),
// against the baseline measured in the same run: `streamText` of the AI SDK over the same model with the same
// instructions, prompt, tools and settings, its stream read to the end. Two agents: one without tools (a clinical
// note to summarize) and the HL7 troubleshooter (hl7v2_parse; the message names it, so each turn makes one tool
// call and a second model step). First = the first part the SSE stream would turn into an event (reasoning-end,
// tool-call, tool-result, text-delta) for the baseline, the first SSE bytes for Clinflow. One core, turns one at a time.
// Then the same over HTTP against the built app (see below). Run it with `npx node bench/bundled.mjs agent-chat`, which
// bundles it. BENCH_TURNS (per variant and round), BENCH_ROUNDS, BENCH_HTTP_TURNS, BENCH_HTTP=0 (in-process only).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stepCountIs, streamText, type ToolSet } from 'ai';
import { offlineModel } from '@/server/ai/offline/model';
import { openDatabase } from '@/server/db/client';
import { migrateDatabase } from '@/server/db/migrate';
import { createRuntime } from '@/server/runtime';
import { configOf } from '@/server/services/agents/agent-views';
import { findAgentRow } from '@/server/services/agents/find-agent';
import { toEventStream } from '@/server/services/agents/event-channel';
import { startTurn } from '@/server/services/agents/turn';
import { serviceContext } from '@/server/services/context';
import { buildToolSet } from '@/server/services/tools/toolset';
import { memoryRuntime, orgCaller } from '../tests/support/runtime';

const root = path.resolve(process.env.BENCH_ROOT ?? process.cwd());
const ADT = fs.readFileSync(path.join(root, '../shared/data/hl7v2/messages/ADT-A01-01.hl7'), 'utf8');
const NOTE = [
  'Patient is a 67 year-old male admitted on 2024-03-12 with chest pain and shortness of breath.',
  'History of hypertension and type 2 diabetes mellitus (ICD-10 E11.9). Denies fever.',
  'BP 150/95 mmHg, glucose 182 mg/dL, HbA1c 8.1 %. Started metformin 500 mg po bid and lisinopril 10 mg po daily.',
  'Plan: follow-up in 2 weeks with cardiology for stress test.',
].join(' ');
const TURNS = Number(process.env.BENCH_TURNS ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ORG = 'bench-agent-chat';

// BENCH_DATA_DIR=<empty folder>: PGlite on disk, as the embedded server keeps it (DATA_DIR), instead of in memory
const rt = process.env.BENCH_DATA_DIR ? await diskRuntime(process.env.BENCH_DATA_DIR) : await memoryRuntime();
async function diskRuntime(dataDir: string) {
  const database = await openDatabase({ dataDir });
  await migrateDatabase(database);
  return createRuntime(database, { rateLimitPerWindow: 1_000_000 });
}
const caller = await orgCaller(rt, ORG);
const ctx = serviceContext(rt, { kind: 'api-key', orgId: ORG, scopes: ['admin'], keyId: '00000000-0000-4000-8000-000000000001' });
const summarizer = await caller.agents.create({
  name: 'Summarizer',
  instructions: 'You summarize clinical text for clinicians. Answer in 3 sentences or fewer.',
  prompt_template: 'Summarize this clinical text:\n\n{{input}}',
  tools: [],
});
const troubleshooter = await caller.agents.create({
  template_id: (await caller.agents.list({ base_templates: true, limit: 20, offset: 0 })).agents.find((t) => t.agent_type === 'hl7')!.id,
});

/** [ms to the first event, ms for the whole turn] */
type Run = () => Promise<[number, number]>;
const EVENT_PARTS = new Set(['reasoning-end', 'tool-call', 'tool-result', 'tool-error', 'text-delta']);

/** The AI SDK alone, with what startTurn would give it for this agent (tools built once, outside the timing). */
async function baseline(agentId: string, message: string): Promise<{ run: Run; parts: string[] }> {
  const config = configOf(await findAgentRow(ctx, agentId));
  const tools: ToolSet = await buildToolSet(ctx, config.tools, new AbortController().signal);
  const model = offlineModel();
  const prompt = config.prompt_template.replace(/\{\{\s*input\s*\}\}/g, message);
  const call = () =>
    streamText({
      model,
      ...(config.instructions ? { instructions: config.instructions } : {}),
      messages: [{ role: 'user', content: prompt }],
      ...(Object.keys(tools).length ? { tools, stopWhen: stepCountIs(5) } : {}),
      temperature: config.model_config.temperature,
      maxOutputTokens: config.model_config.max_tokens,
      maxRetries: 1,
    });
  const parts: string[] = [];
  for await (const part of call().stream) if (EVENT_PARTS.has(part.type)) parts.push(part.type);
  return {
    parts,
    run: async () => {
      const start = performance.now();
      let first = 0;
      for await (const part of call().stream) if (!first && EVENT_PARTS.has(part.type)) first = performance.now() - start;
      return [first, performance.now() - start];
    },
  };
}

/** startTurn as POST /api/agents/{id}/chat {stream: true} runs it (a new conversation each turn), read as SSE bytes. */
async function clinflow(agentId: string, message: string): Promise<{ run: Run; events: string[] }> {
  const turn = await startTurn(ctx, agentId, { message, source: 'chat' });
  const text = await new Response(toEventStream(turn.events)).text();
  return {
    events: [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]!),
    run: async () => {
      const start = performance.now();
      let first = 0;
      const reader = toEventStream((await startTurn(ctx, agentId, { message, source: 'chat' })).events).getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) if (!first && r.value.byteLength) first = performance.now() - start;
      return [first, performance.now() - start];
    },
  };
}

/** Statements per Clinflow turn and their time (p50 of the turns; a pass of its own, after the timed ones): PGlite's query wrapped. */
async function database(run: Run, turns: number): Promise<{ statements: number; ms: number }> {
  const pglite = rt.database.pglite;
  if (!pglite) return { statements: NaN, ms: NaN };
  const query = pglite.query.bind(pglite);
  let statements = 0;
  let time = 0;
  pglite.query = (async (...args: Parameters<typeof query>) => {
    const start = performance.now();
    try {
      return await query(...args);
    } finally {
      statements++;
      time += performance.now() - start;
    }
  }) as typeof query;
  const times: number[] = [];
  for (let i = 0; i < turns; i++) {
    time = 0;
    await run();
    times.push(time);
  }
  pglite.query = query;
  return { statements: statements / turns, ms: pct(times, 0.5) };
}

const cases = [
  { label: 'no tools', agent: summarizer.id, message: NOTE },
  { label: 'hl7v2_parse tool', agent: troubleshooter.id, message: `Please hl7v2_parse this message:\n${ADT}` },
];

const baselines = new Map<string, { f50: number; w50: number }>();
const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
/** `a, b, b, b` as `a, 3× b` */
const runs = (xs: string[]) =>
  xs
    .reduce<[string, number][]>((acc, x) => (acc.at(-1)?.[0] === x ? (acc.at(-1)![1]++, acc) : [...acc, [x, 1]]), [])
    .map(([x, n]) => (n > 1 ? `${n}× ${x}` : x))
    .join(', ');
const stats = (s: [number, number][]) => ({
  f50: pct(
    s.map((x) => x[0]),
    0.5,
  ),
  f95: pct(
    s.map((x) => x[0]),
    0.95,
  ),
  w50: pct(
    s.map((x) => x[1]),
    0.5,
  ),
  w95: pct(
    s.map((x) => x[1]),
    0.95,
  ),
});
async function samples(run: Run, n: number): Promise<[number, number][]> {
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) out.push(await run());
  return out;
}
const ms = (x: number) => `${x.toFixed(3).padStart(7)} ms`;

console.log(
  `Agent chat on clinflow/offline (PGlite ${process.env.BENCH_DATA_DIR ? 'on disk' : 'in memory'}), ${TURNS} turns per variant in each of ${ROUNDS} rounds, one at a time, one core`,
);
for (const c of cases) {
  const base = await baseline(c.agent, c.message);
  const ours = await clinflow(c.agent, c.message);
  const taken = { base: [] as [number, number][], ours: [] as [number, number][] };
  await samples(base.run, 50); // warm-up
  await samples(ours.run, 50);
  for (let round = 0; round < ROUNDS; round++) {
    taken.base.push(...(await samples(base.run, TURNS)));
    taken.ours.push(...(await samples(ours.run, TURNS)));
  }
  const b = stats(taken.base);
  const o = stats(taken.ours);
  console.log(`\n  ${c.label}: baseline parts [${runs(base.parts)}], SSE events [${runs(ours.events)}]`);
  console.log(`    ${'streamText (baseline)'.padEnd(32)} first part  p50 ${ms(b.f50)} p95 ${ms(b.f95)}   turn p50 ${ms(b.w50)} p95 ${ms(b.w95)}`);
  console.log(`    ${'startTurn + toEventStream'.padEnd(32)} first event p50 ${ms(o.f50)} p95 ${ms(o.f95)}   turn p50 ${ms(o.w50)} p95 ${ms(o.w95)}`);
  baselines.set(c.label, b);
  const db = await database(ours.run, 100);
  console.log(`    of which the database: ${db.statements} statements, ${db.ms.toFixed(3)} ms per turn (p50, PGlite in this process)`);
  console.log(
    `    overhead p50: first event ${(o.f50 - b.f50).toFixed(3)} ms (ratio ${(o.f50 / b.f50).toFixed(2)}), turn ${(o.w50 - b.w50).toFixed(3)} ms (ratio ${(o.w50 / b.w50).toFixed(2)})   target: overhead ≤ 5 ms p50`,
  );
}
await rt.database.close();

// Over HTTP (BENCH_HTTP=0 skips it): POST /api/agents/{id}/chat {stream: true} against the built app on PGlite (the
// .next-bench build of `npm run bench`; BENCH_SKIP_BUILD=1 reuses it), read as bytes, against the in-process
// streamText baseline above and a bare round trip (GET /api/health) on the same server.
if (process.env.BENCH_HTTP !== '0') {
  // bench/lib.mjs is loaded from the checkout at run time (bundled, it would look for the app beside the bundle)
  const lib = (await import(path.join(root, 'bench/lib.mjs'))) as typeof import('./lib.mjs');
  lib.build();
  const server = await lib.startServer(
    { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'clinflow-bench-agent-chat-')), AGENT_CHAT_PER_MINUTE: '100000000' },
    3447,
  );
  try {
    const HTTP_TURNS = Number(process.env.BENCH_HTTP_TURNS ?? 300);
    const health: Run = async () => {
      const start = performance.now();
      await (await fetch(`${server.url}/api/health`)).arrayBuffer();
      const t = performance.now() - start;
      return [t, t];
    };
    const templates = await lib.api(server.url, 'GET', '/api/agents?base_templates=true&limit=20&offset=0');
    const agents = {
      'no tools': await lib.api(server.url, 'POST', '/api/agents', {
        name: 'Summarizer',
        instructions: 'You summarize clinical text for clinicians. Answer in 3 sentences or fewer.',
        prompt_template: 'Summarize this clinical text:\n\n{{input}}',
        tools: [],
      }),
      'hl7v2_parse tool': await lib.api(server.url, 'POST', '/api/agents', {
        template_id: templates.agents.find((t: { agent_type: string }) => t.agent_type === 'hl7').id,
      }),
    } as Record<string, { id: string }>;
    const chat =
      (agentId: string, message: string): Run =>
      async () => {
        const start = performance.now();
        let first = 0;
        const r = await fetch(`${server.url}/api/agents/${agentId}/chat`, {
          method: 'POST',
          headers: lib.AUTH,
          body: JSON.stringify({ message, stream: true }),
        });
        if (r.status !== 200) throw new Error(`chat answered ${r.status}: ${await r.text()}`);
        const reader = r.body!.getReader();
        for (let x = await reader.read(); !x.done; x = await reader.read()) if (!first && x.value.byteLength) first = performance.now() - start;
        return [first, performance.now() - start];
      };
    for (let i = 0; i < 50; i++) await health();
    const bare = stats(await samples(health, HTTP_TURNS));
    console.log(
      `\nOver HTTP (npm start's server, PGlite, one request at a time), ${HTTP_TURNS} turns each; bare round trip GET /api/health p50 ${ms(bare.w50)} p95 ${ms(bare.w95)}`,
    );
    for (const c of cases) {
      const run = chat(agents[c.label]!.id, c.message);
      const check = await (
        await fetch(`${server.url}/api/agents/${agents[c.label]!.id}/chat`, {
          method: 'POST',
          headers: lib.AUTH,
          body: JSON.stringify({ message: c.message, stream: true }),
        })
      ).text();
      for (let i = 0; i < 50; i++) await run();
      const o = stats(await samples(run, HTTP_TURNS));
      const b = baselines.get(c.label)!;
      console.log(`\n  ${c.label}: SSE events [${runs([...check.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]!))}]`);
      console.log(`    ${'POST …/chat stream: true'.padEnd(32)} first event p50 ${ms(o.f50)} p95 ${ms(o.f95)}   turn p50 ${ms(o.w50)} p95 ${ms(o.w95)}`);
      console.log(
        `    overhead p50 over streamText: first event ${(o.f50 - b.f50).toFixed(3)} ms (ratio ${(o.f50 / b.f50).toFixed(2)}), turn ${(o.w50 - b.w50).toFixed(3)} ms (ratio ${(o.w50 / b.w50).toFixed(2)}), a bare round trip being ${bare.w50.toFixed(3)} ms   target: overhead ≤ 5 ms p50`,
      );
    }
  } finally {
    server.stop();
  }
}
