// The MLLP feed's five nodes alone, per message, as production runs them (bundled): mllp-listener-trigger →
// hl7v2-parse → hl7v2-to-fhir (transaction) → fhir-validate → fhir-deidentify → fhir-write (transaction, to a FHIR
// server on loopback: @medplum/fhir-router in a child process, so that its CPU is not counted here; through the server's
// outbound calls, src/server/outbound), each node's
// `execute` called in a loop with the feed's config, no engine, queue or database. Reports each node's CPU time per
// message (process.cpuUsage around the call: what the node costs this process, its share of fhir-write's HTTP
// included, the server's work not), against the plain work measured in the same run: our HL7 v2 parse alone.
// Messages: the 28 ADT samples (the feed's), then every sample HL7 v2 message (a message whose conversion is refused
// or whose bundle is invalid stops where the pipeline would). BENCH_ROUNDS (passes over the messages, default 30; the
// best pass counts), BENCH_WARMUP (passes not counted, default 5), BENCH_ADT_ONLY=1 (the first set alone), BENCH_HTTP=fetch (fhir-write
// through the web fetch rather than services.request: the same run's baseline for it), BENCH_NO_TARGETS=1 (no node told
// what its output feeds, as before outputTargets: fhir-validate then always takes its memo's snapshot). `--cpu-prof` (NODE_OPTIONS) profiles it.
// Run it with `npx node bench/bundled.mjs feed-nodes`; writes bench/results/feed-nodes.json.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseHl7v2 } from '@/clinical/hl7v2';
import type { NodeResult, NodeType } from '@/engine/node-type';
import { fhirDeidentifyNode } from '@/engine/nodes/fhir-deidentify.execute';
import { fhirValidateNode } from '@/engine/nodes/fhir-validate.execute';
import { fhirWriteNode } from '@/engine/nodes/fhir-write.execute';
import { hl7v2ParseNode } from '@/engine/nodes/hl7v2-parse.execute';
import { hl7v2ToFhirNode } from '@/engine/nodes/hl7v2-to-fhir.execute';
import { mllpListenerTriggerNode } from '@/engine/nodes/mllp-listener-trigger.execute';
import { testContext, testServices } from '../tests/support/engine/node-context';
import { createOutbound } from '@/server/outbound/outbound';
import { startFhirServer } from '../tests/support/fhir-server';

if (process.env.BENCH_ROLE === 'fhir-server') {
  // the child: a FHIR server on loopback, its base URL on stdout, until the parent closes stdin
  const peer = await startFhirServer({ auth: 'none' });
  process.stdout.write(`${JSON.stringify({ baseUrl: peer.baseUrl })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
} else {
  await main();
}

async function main() {
  const root = path.resolve(process.env.BENCH_ROOT ?? process.cwd());
  const DIR = path.join(root, '../shared/data/hl7v2/messages');
  const read = (f: string) => fs.readFileSync(path.join(DIR, f), 'utf8').replace(/\r?\n/g, '\r').trim();
  const files = fs.readdirSync(DIR).sort();
  const sets: [string, string[]][] = [
    [`ADT (${files.filter((f) => f.startsWith('ADT')).length} samples, the feed's)`, files.filter((f) => f.startsWith('ADT')).map(read)],
    ...(process.env.BENCH_ADT_ONLY ? [] : [[`every HL7 v2 sample (${files.length})`, files.map(read)] as [string, string[]]]),
  ];
  const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
  const warmUp = Number(process.env.BENCH_WARMUP ?? 5);

  const child = spawn(process.execPath, [process.argv[1]!], {
    env: { ...process.env, BENCH_ROLE: 'fhir-server', NODE_OPTIONS: '' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve((JSON.parse(d.toString()) as { baseUrl: string }).baseUrl));
    child.once('exit', (code) => reject(new Error(`the FHIR server exited (${code})`)));
  });
  const connector = {
    id: 'id-fhir',
    name: 'Research FHIR',
    type: 'fhir' as const,
    endpoint: baseUrl,
    config: {},
    credentials: {},
    updatedAt: '2026-11-28T00:00:00.000Z',
  };
  // the server's own outbound calls (policy, limits, keep-alive agent), loopback allowed as OUTBOUND_ALLOW would
  const out = createOutbound({ allow: ['loopback'], timeoutMs: 30_000, maxBytes: 50 * 1024 * 1024 });
  // BENCH_HTTP=fetch: fhir-write's exchanges through the web fetch (as before services.request), for a same-run baseline
  const viaFetch = process.env.BENCH_HTTP === 'fetch';
  const services = testServices({ fetch: out.fetch, ...(viaFetch ? {} : { request: out.request }), connector: async () => connector });

  type Step = { id: string; node: NodeType; config: unknown; input: (prev: NodeResult) => Record<string, unknown> | undefined };
  /** The output `name` of the previous node as this one's input `as`, or undefined when it took another port. */
  const from = (name: string, as: string) => (p: NodeResult) => (p.outputs[name] === undefined ? undefined : { [as]: p.outputs[name] });
  const steps: Step[] = [
    { id: 'in', node: mllpListenerTriggerNode as unknown as NodeType, config: { port: 2575 }, input: () => ({}) },
    { id: 'parse', node: hl7v2ParseNode as unknown as NodeType, config: {}, input: from('message', 'text') },
    { id: 'fhir', node: hl7v2ToFhirNode as unknown as NodeType, config: { bundle_type: 'transaction' }, input: from('message', 'message') },
    { id: 'check', node: fhirValidateNode as unknown as NodeType, config: { expect: 'bundle' }, input: from('bundle', 'resource') },
    { id: 'deid', node: fhirDeidentifyNode as unknown as NodeType, config: { expect: 'bundle' }, input: from('valid', 'resource') },
    {
      id: 'write',
      node: fhirWriteNode as unknown as NodeType,
      config: { connector: 'Research FHIR', operation: 'transaction' },
      input: from('resource', 'resource'),
    },
  ];
  const configs = steps.map((s) => s.node.config.parse(s.config));
  const cpu = () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };

  let run = 0;
  /** One pass over `messages`: CPU µs per step (and of the plain parse), and how many messages reached each step. */
  async function pass(messages: string[]) {
    const us = new Array<number>(steps.length + 1).fill(0);
    const reached = new Array<number>(steps.length).fill(0);
    for (const text of messages) {
      let t = cpu();
      if (!parseHl7v2(text).ok) throw new Error('a sample does not parse');
      us[steps.length]! += cpu() - t;
      const executionId = `feed-${++run}`;
      let prev: NodeResult = { outputs: {} };
      for (let i = 0; i < steps.length; i++) {
        const step = steps[i]!;
        const inputs = step.input(prev);
        if (!inputs) break;
        const ctx = testContext({ executionId, nodeId: step.id, idempotencyKey: `${executionId}:${step.id}`, executionInputs: { message: text }, services });
        // what the engine tells a node its output feeds: the next node of the feed (BENCH_NO_TARGETS=1: not known, as before)
        if (!process.env.BENCH_NO_TARGETS) ctx.outputTargets = () => (steps[i + 1] ? [steps[i + 1]!.node.id] : []);
        t = cpu();
        prev = await step.node.execute(ctx, inputs, configs[i] as never);
        us[i]! += cpu() - t;
        reached[i]!++;
      }
    }
    return { us, reached };
  }

  const results = [];
  for (const [label, messages] of sets) {
    for (let i = 0; i < warmUp; i++) await pass(messages);
    let best: Awaited<ReturnType<typeof pass>> | undefined;
    const total = (p: Awaited<ReturnType<typeof pass>>) => p.us.slice(0, steps.length).reduce((a, b) => a + b, 0);
    for (let i = 0; i < rounds; i++) {
      const p = await pass(messages);
      if (!best || total(p) < total(best)) best = p;
    }
    const n = messages.length;
    const ms = (us: number) => us / 1000 / n;
    const parseAlone = ms(best!.us[steps.length]!);
    const nodes = steps.map((s, i) => ({ node: s.id, type: s.node.id, msPerMessage: ms(best!.us[i]!), reached: best!.reached[i]! }));
    const all = ms(total(best!));
    console.log(`\n${label}: CPU ms per message, best of ${rounds} passes (after ${warmUp} not counted)`);
    for (const r of nodes) {
      const share = `${((100 * r.msPerMessage) / all).toFixed(0)}%`.padStart(4);
      console.log(
        `  ${r.type.padEnd(24)} ${r.msPerMessage.toFixed(3).padStart(8)} ms  ${share}   × parse alone ${(r.msPerMessage / parseAlone).toFixed(1).padStart(6)}   (${r.reached}/${n} messages)`,
      );
    }
    console.log(
      `  ${'five nodes and the trigger'.padEnd(24)} ${all.toFixed(3).padStart(8)} ms         × parse alone ${(all / parseAlone).toFixed(1).padStart(6)}`,
    );
    console.log(`  ${'baseline: parse alone'.padEnd(24)} ${parseAlone.toFixed(3).padStart(8)} ms`);
    results.push({ set: label, messages: n, parseAloneMs: parseAlone, totalMs: all, ratioToParse: all / parseAlone, nodes });
  }
  child.stdin.end();
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'bench/results/feed-nodes.json'),
    `${JSON.stringify({ date: new Date().toISOString(), rounds, warmUp, results }, null, 2)}\n`,
  );
}
