import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  RELEASE_SYNC,
  type QuickJSContext,
  type QuickJSHandle,
  type VmCallResult,
} from 'quickjs-emscripten';
import { NodeError } from '../node-error';
import type { NodeContext } from '../node-type';
import { MAX_LOG_LINES } from '../nodes/code';

/** The QuickJS sandbox of the `code` node: a fresh WebAssembly instance per run, with hard time and memory limits. */

/** The sandbox's own stack limit: deep recursion fails cleanly instead of overflowing the host. */
const STACK_BYTES = 256 * 1024;
const MB = 1024 * 1024;
const PAGE = 65_536;
/** The QuickJS build's smallest WebAssembly memory (16 MB). */
const MIN_PAGES = 256;
/** What the sandbox itself takes of that memory (static data, its C stack, an empty runtime and context), measured. */
const BASE_BYTES = 6 * MB;

const RUNNER = `(function (fn, json) {
  const result = fn(JSON.parse(json));
  if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
    throw new TypeError('the code returned a Promise: return a plain value (there is no event loop here)');
  }
  const out = JSON.stringify(result);
  return out === undefined ? 'null' : out;
})`;

type Dumped = { name?: unknown; message?: unknown } | string | null | undefined;

/**
 * A fresh QuickJS WebAssembly module whose memory cannot grow past the budget: the hard memory cap.
 * (QuickJS's own setMemoryLimit does not add up allocations in this build, so alone it bounds little.)
 * Below the build's 16 MB minimum, `reserve` bytes are set aside so the code still gets only its budget.
 */
async function sandboxModule(memoryMb: number) {
  const budget = memoryMb * MB;
  const pages = Math.max(MIN_PAGES, Math.ceil((BASE_BYTES + budget) / PAGE));
  const wasmMemory = new WebAssembly.Memory({ initial: MIN_PAGES, maximum: pages });
  const module = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory }));
  return { module, reserve: pages * PAGE - BASE_BYTES - budget };
}

/** When QuickJS runs out of memory it may throw `null` (no room for an error object): tell that from `throw null`. */
function outOfMemory(vm: QuickJSContext): boolean {
  const probe = vm.evalCode('new ArrayBuffer(262144)');
  if (probe.error) {
    probe.error.dispose();
    return true;
  }
  probe.value.dispose();
  return false;
}

function classify(error: Dumped, ctx: NodeContext, timeoutMs: number, memoryMb: number): NodeError {
  if (typeof error !== 'object' || error === null) return new NodeError('CODE_FAILED', `The code threw ${JSON.stringify(error) ?? 'undefined'}`);
  const name = String(error.name ?? 'Error');
  const message = String(error.message ?? '');
  if (name === 'InternalError' && message === 'interrupted') {
    return ctx.signal.aborted
      ? new NodeError('CANCELLED', 'The code was stopped: the execution was cancelled.')
      : new NodeError('CODE_TIMEOUT', `The code ran longer than ${timeoutMs} ms and was stopped.`);
  }
  if (name === 'InternalError' && message === 'out of memory') {
    return new NodeError('CODE_MEMORY_LIMIT', `The code used more than ${memoryMb} MB of memory and was stopped.`);
  }
  return new NodeError('CODE_FAILED', `The code threw ${name}: ${message.slice(0, 1000)}`);
}

function installConsole(vm: QuickJSContext, ctx: NodeContext): void {
  let lines = 0;
  const consoleHandle = vm.newObject();
  const methods = { log: 'info', info: 'info', debug: 'debug', warn: 'warn', error: 'error' } as const;
  for (const [method, level] of Object.entries(methods)) {
    const fn = vm.newFunction(method, (...args: QuickJSHandle[]) => {
      lines++;
      if (lines === MAX_LOG_LINES + 1) ctx.log('warn', `console output beyond ${MAX_LOG_LINES} lines was dropped`);
      if (lines > MAX_LOG_LINES) return;
      const text = args
        .map((a) => {
          const v: unknown = vm.dump(a);
          return typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
        })
        .join(' ');
      ctx.log(level, text.slice(0, 4000));
    });
    vm.setProp(consoleHandle, method, fn);
    fn.dispose();
  }
  vm.setProp(vm.global, 'console', consoleHandle);
  consoleHandle.dispose();
}

/**
 * Whether `source` is a function body on its own, as the language's Function constructor requires (V8 parses
 * the body alone; QuickJS's Function constructor splices it into a wrapper and would not notice). Only parsed
 * here, never run: a source such as `}); (function () {` is refused instead of closing the sandbox's wrapper.
 */
function bodyProblem(source: string): string | undefined {
  try {
    new Function('input', source);
    return undefined;
  } catch (e) {
    return e instanceof SyntaxError ? `SyntaxError: ${e.message}` : undefined;
  }
}

/** Runs `source` as a function body in a fresh QuickJS runtime with memory and time limits. */
export async function runSandboxed(
  ctx: NodeContext,
  source: string,
  input: unknown,
  limits: { timeout_ms: number; memory_mb: number },
): Promise<unknown> {
  let json: string;
  try {
    json = JSON.stringify(input ?? null);
  } catch (e) {
    throw new NodeError('CODE_FAILED', `The input cannot be passed to the sandbox as JSON: ${(e as Error).message}`);
  }
  // The input is copied in twice (as text, then parsed): refuse early what cannot fit.
  const inputBytes = Buffer.byteLength(json);
  if (2 * inputBytes > limits.memory_mb * MB) {
    throw new NodeError('CODE_MEMORY_LIMIT', `The input (${(inputBytes / MB).toFixed(1)} MB as JSON) does not fit in ${limits.memory_mb} MB of sandbox memory.`);
  }
  const problem = bodyProblem(source);
  if (problem) throw new NodeError('CODE_FAILED', `The code threw ${problem}`);
  const { module, reserve } = await sandboxModule(limits.memory_mb);
  const runtime = module.newRuntime();
  const handles: QuickJSHandle[] = [];
  let vm: QuickJSContext | undefined;
  try {
    runtime.setMaxStackSize(STACK_BYTES);
    vm = runtime.newContext();
    installConsole(vm, ctx);
    const fail = (h: QuickJSHandle): never => {
      let dumped: Dumped;
      try {
        dumped = vm!.dump(h) as Dumped;
      } catch {
        dumped = null;
      }
      h.dispose();
      if (dumped === null || dumped === undefined) {
        runtime.removeInterruptHandler();
        if (outOfMemory(vm!)) dumped = { name: 'InternalError', message: 'out of memory' };
      }
      throw classify(dumped, ctx, limits.timeout_ms, limits.memory_mb);
    };
    const take = (r: VmCallResult<QuickJSHandle>): QuickJSHandle => {
      if (r.error) return fail(r.error);
      handles.push(r.value);
      return r.value;
    };
    if (reserve >= PAGE) take(vm.evalCode(`new ArrayBuffer(${reserve})`, 'reserve.js')); // held here, out of the code's reach
    // QuickJS's own limit on top: it refuses any single allocation larger than the budget.
    runtime.setMemoryLimit(limits.memory_mb * MB);
    const deadline = Date.now() + limits.timeout_ms;
    runtime.setInterruptHandler(() => Date.now() > deadline || ctx.signal.aborted);
    // The body and `(function (input) {` share line 1, so error line numbers match the user's source. It was
    // checked to be a function body on its own first (bodyProblem), so it cannot close the wrapper early.
    const fn = take(vm.evalCode(`(function (input) {${source}\n})`, 'code.js'));
    const runner = take(vm.evalCode(RUNNER, 'runner.js'));
    const inputJson = vm.newString(json);
    handles.push(inputJson);
    const out = take(vm.callFunction(runner, vm.undefined, fn, inputJson));
    return JSON.parse(vm.getString(out)) as unknown;
  } catch (e) {
    if (e instanceof NodeError) throw e;
    // the WebAssembly engine itself failed (an abort or assertion inside QuickJS): its text says nothing to
    // the author and names the engine's sources, so the run gets a plain answer; the instance is discarded
    throw new NodeError('CODE_FAILED', 'The code stopped the JavaScript sandbox (an internal failure of its engine, e.g. from exhausting a resource); the run was stopped.');
  } finally {
    try {
      for (const h of handles.reverse()) if (h.alive) h.dispose();
      vm?.dispose();
      runtime.dispose();
    } catch {
      // an engine that aborted cannot free itself; the whole instance is dropped with this run
    }
  }
}
