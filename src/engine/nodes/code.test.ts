import { describe, expect, it } from 'vitest';
import { codeNode as code } from './code.execute';
import { runNode, SYNTHEA_PATIENTS, testContext, testServices } from '../../../tests/support/engine/node-context';

describe('code', () => {
  it('runs the function body on the input and returns its result', async () => {
    const source = [
      'const born = new Date(input.birthDate);',
      'const age = Math.floor((Date.UTC(2000, 0, 1) - born.getTime()) / 31557600000);',
      'return { id: input.id, family: input.name[0].family.toUpperCase(), age };',
    ].join('\n');
    const r = await runNode(code, { source }, { input: SYNTHEA_PATIENTS[3] });
    expect(r.outputs).toEqual({ output: { id: '6a4160eb-a793-2f86-2302-378626f46cce', family: 'CUMMINGS51', age: 36 } });
  });

  it('passes values as JSON: undefined becomes null, Dates become strings, the input is a copy', async () => {
    expect((await runNode(code, { source: 'input.x = 1;' }, { input: {} })).outputs).toEqual({ output: null });
    expect((await runNode(code, { source: 'return new Date(0);' }, { input: null })).outputs).toEqual({ output: '1970-01-01T00:00:00.000Z' });
    const original = { n: 1 };
    await runNode(code, { source: 'input.n = 2; return input;' }, { input: original });
    expect(original).toEqual({ n: 1 });
  });

  it('sends console output to the execution log', async () => {
    const ctx = testContext();
    await runNode(code, { source: 'console.log("patient", input.id, {age: 3}); console.warn("careful"); return 1;' }, { input: { id: 'p1' } }, ctx);
    expect(ctx.logs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ level: 'info', message: 'patient p1 {"age":3}' }),
        expect.objectContaining({ level: 'warn', message: 'careful' }),
      ]),
    );
  });

  it('has no process, require, fetch, timers or host globals inside', async () => {
    const source = 'return [typeof process, typeof require, typeof fetch, typeof setTimeout, typeof setInterval, typeof globalThis.Buffer, typeof module];';
    const r = await runNode(code, { source }, { input: null });
    expect(r.outputs.output).toEqual(Array(7).fill('undefined'));
  });

  it('stops an endless loop at timeout_ms with CODE_TIMEOUT', async () => {
    const started = Date.now();
    await expect(runNode(code, { source: 'while (true) {}', timeout_ms: 200 }, { input: null })).rejects.toMatchObject({
      code: 'CODE_TIMEOUT',
      message: expect.stringContaining('200 ms'),
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('stops runaway allocation at memory_mb with CODE_MEMORY_LIMIT, whatever is allocated', async () => {
    const hogs = {
      arrays: 'const keep = []; while (true) keep.push(new Array(100000).fill(input.n));',
      objects: 'const keep = []; for (let i = 0; ; i++) keep.push({ i, code: "E11.9", display: "Type 2 diabetes" });',
      strings: 'const keep = []; while (true) keep.push("x".repeat(1024 * 1024) + keep.length);',
      buffers: 'const keep = []; while (true) keep.push(new Uint8Array(512 * 1024));',
    };
    for (const [kind, source] of Object.entries(hogs)) {
      const started = Date.now();
      const run = runNode(code, { source, memory_mb: 8, timeout_ms: 10_000 }, { input: { n: 1 } });
      await expect(run, kind).rejects.toMatchObject({ code: 'CODE_MEMORY_LIMIT', message: expect.stringContaining('8 MB') });
      expect(Date.now() - started, kind).toBeLessThan(5000);
    }
  });

  it('gives the code about memory_mb of memory: below it works, above it stops', async () => {
    const fill = (mb: number) => `const keep = []; for (let i = 0; i < ${mb * 4}; i++) keep.push(new Uint8Array(256 * 1024)); return keep.length;`;
    expect((await runNode(code, { source: fill(4), memory_mb: 6 }, { input: null })).outputs.output).toBe(16);
    await expect(runNode(code, { source: fill(8), memory_mb: 6 }, { input: null })).rejects.toMatchObject({ code: 'CODE_MEMORY_LIMIT' });
    expect((await runNode(code, { source: fill(40), memory_mb: 48 }, { input: null })).outputs.output).toBe(160);
    await expect(runNode(code, { source: fill(56), memory_mb: 48 }, { input: null })).rejects.toMatchObject({ code: 'CODE_MEMORY_LIMIT' });
  });

  it('counts the input against the memory limit', async () => {
    const big = { text: 'x'.repeat(3 * 1024 * 1024) };
    await expect(runNode(code, { source: 'return input.text.length', memory_mb: 4 }, { input: big })).rejects.toMatchObject({ code: 'CODE_MEMORY_LIMIT' });
    expect((await runNode(code, { source: 'return input.text.length', memory_mb: 32 }, { input: big })).outputs.output).toBe(3 * 1024 * 1024);
  });

  it('tells `throw null` apart from running out of memory', async () => {
    await expect(runNode(code, { source: 'throw null' }, { input: null })).rejects.toMatchObject({
      code: 'CODE_FAILED',
      message: expect.stringContaining('null'),
    });
  });

  it('reports a thrown error, a syntax error and deep recursion as CODE_FAILED with the message', async () => {
    await expect(runNode(code, { source: 'throw new Error("no MRN on " + input.id)' }, { input: { id: 'p1' } })).rejects.toMatchObject({
      code: 'CODE_FAILED',
      message: 'The code threw Error: no MRN on p1',
    });
    await expect(runNode(code, { source: 'return {' }, { input: null })).rejects.toMatchObject({
      code: 'CODE_FAILED',
      message: expect.stringContaining('SyntaxError'),
    });
    // compiled as a function body, never spliced into a wrapper it could close and escape
    for (const source of ['}); (function(){ return 1;', '}, 1); (function () {', 'return 1 })(null); (function () {']) {
      await expect(runNode(code, { source }, { input: null })).rejects.toMatchObject({ code: 'CODE_FAILED', message: expect.stringContaining('SyntaxError') });
    }
    await expect(runNode(code, { source: 'const f = (n) => f(n + 1) + 1; return f(0);' }, { input: null })).rejects.toMatchObject({
      code: 'CODE_FAILED',
      message: expect.stringContaining('stack overflow'),
    });
  });

  it('runs off the thread that serves requests: its event loop stays free while the code spins', async () => {
    const events: string[] = [];
    const spinning = runNode(code, { source: 'while (true) {}', timeout_ms: 800 }, { input: null }).catch((e: { code: string }) =>
      events.push(`code ${e.code}`),
    );
    await new Promise((r) => setTimeout(r, 50));
    events.push('timer fired'); // a request handled meanwhile would be answered as quickly
    await spinning;
    expect(events).toEqual(['timer fired', 'code CODE_TIMEOUT']);
  });

  it('shares the workers fairly: a busy organization does not make another wait for all of its runs', async () => {
    const finished: string[] = [];
    const ctx = (tenant: string) => testContext({ services: testServices({ tenant }) });
    const busy = Array.from({ length: 6 }, (_, i) =>
      runNode(code, { source: 'const end = Date.now() + 300; while (Date.now() < end) {} return 1;', timeout_ms: 2000 }, { input: null }, ctx('busy')).then(
        () => finished.push(`busy ${i}`),
      ),
    );
    const other = runNode(code, { source: 'return 2;' }, { input: null }, ctx('other')).then(() => finished.push('other'));
    await Promise.all([...busy, other]);
    // the other organization's run came before most of the busy one's, though it was sent after all six
    expect(finished.indexOf('other')).toBeLessThan(3);
  });

  it('stops a cancelled run at once', async () => {
    const controller = new AbortController();
    const run = runNode(code, { source: 'while (true) {}', timeout_ms: 10_000 }, { input: null }, testContext({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 100);
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('refuses a returned Promise', async () => {
    await expect(runNode(code, { source: 'return Promise.resolve(1)' }, { input: null })).rejects.toMatchObject({
      code: 'CODE_FAILED',
      message: expect.stringContaining('Promise'),
    });
  });

  it('starts every run in a fresh sandbox', async () => {
    await runNode(code, { source: 'globalThis.leak = 42; return 1;' }, { input: null });
    expect((await runNode(code, { source: 'return typeof leak;' }, { input: null })).outputs.output).toBe('undefined');
  });

  it('keeps limits in range', () => {
    expect(code.config.safeParse({ source: 'return 1', timeout_ms: 5 }).success).toBe(false);
    expect(code.config.safeParse({ source: 'return 1', memory_mb: 256 }).success).toBe(false);
    expect(code.config.safeParse({ source: '' }).success).toBe(false);
    expect(code.config.parse({ source: 'return 1' })).toEqual({ source: 'return 1', timeout_ms: 1000, memory_mb: 32 });
  });
});
