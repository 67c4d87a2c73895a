// The outbound HTTP paths nodes get, one against the other in the same run (bundled): `services.fetch` (web
// Request/Response over node:http, src/server/outbound/fetch.ts) and `services.request` (the plain exchange on the same
// transport, src/server/outbound/request.ts), each POSTing a ~60 KB FHIR transaction (the MLLP feed's size) to a
// server in a child process (its CPU not counted) and parsing its ~60 KB answer, as the FHIR client does. CPU ms per
// call (process.cpuUsage), best of BENCH_ROUNDS (default 5) rounds of BENCH_CALLS (default 300) after one not counted.
// Run it with `node bench/bundled.mjs outbound-http`; writes bench/results/outbound-http.json.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createOutbound } from '@/server/outbound/outbound';

if (process.env.ROLE === 'server') {
  const answer = JSON.stringify({
    resourceType: 'Bundle',
    type: 'transaction-response',
    entry: Array.from({ length: 40 }, (_, i) => ({
      response: { status: '201' },
      resource: { resourceType: 'Observation', id: `id-${i}`, text: 'x'.repeat(1400) },
    })),
  });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/fhir+json' });
      res.end(answer);
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as { port: number }).port}\n`));
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
} else {
  const child = spawn(process.execPath, [process.argv[1]!], { env: { ...process.env, ROLE: 'server' }, stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((r) => child.stdout.once('data', (d) => r(Number(String(d)))));
  const url = `http://127.0.0.1:${port}/`;
  const out = createOutbound({ allow: ['loopback'], timeoutMs: 30_000, maxBytes: 50 * 1024 * 1024 });
  const body = JSON.stringify({
    resourceType: 'Bundle',
    type: 'transaction',
    entry: Array.from({ length: 40 }, () => ({ resource: { resourceType: 'Observation', text: 'y'.repeat(1450) } })),
  });
  const headers = { 'content-type': 'application/fhir+json', accept: 'application/fhir+json' };
  const ways: Record<string, () => Promise<unknown>> = {
    fetch: async () =>
      JSON.parse(await (await out.fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(30_000) })).text()),
    request: async () =>
      JSON.parse((await out.request({ url, method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(30_000) })).body.toString('utf8')),
  };
  const cpu = () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  const n = Number(process.env.BENCH_CALLS ?? 300);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const best: Record<string, number> = {};
  for (let round = 0; round <= rounds; round++) {
    for (const [name, call] of Object.entries(ways)) {
      const t = cpu();
      for (let i = 0; i < n; i++) await call();
      const ms = (cpu() - t) / 1000 / n;
      if (round > 0) best[name] = Math.min(best[name] ?? Infinity, ms);
    }
  }
  const ratio = best.fetch! / best.request!;
  console.log(`POST of ${body.length} bytes, the answer read and parsed: CPU ms per call, best of ${rounds} rounds of ${n}`);
  for (const [name, ms] of Object.entries(best)) console.log(`  services.${name.padEnd(8)} ${ms.toFixed(3)} ms`);
  console.log(`  fetch ÷ request          ${ratio.toFixed(2)}`);
  const root = path.resolve(process.env.BENCH_ROOT ?? process.cwd());
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const result = { date: new Date().toISOString(), bodyBytes: body.length, calls: n, rounds, msPerCall: best, ratio };
  fs.writeFileSync(path.join(root, 'bench/results/outbound-http.json'), `${JSON.stringify(result, null, 2)}\n`);
  child.stdin.end();
}
