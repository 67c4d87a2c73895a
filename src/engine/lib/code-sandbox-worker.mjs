// The `code` node's sandbox, run in a worker thread (see code-sandbox.ts, which owns the pool): a fresh QuickJS
// WebAssembly instance per run, with hard time and memory limits, so user code never runs on the thread that
// serves requests. Plain JavaScript, loaded by path: it is not bundled with the app.
import { parentPort } from 'node:worker_threads';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';

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

class Failure extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * A fresh QuickJS WebAssembly module whose memory cannot grow past the budget: the hard memory cap.
 * (QuickJS's own setMemoryLimit does not add up allocations in this build, so alone it bounds little.)
 * Below the build's 16 MB minimum, `reserve` bytes are set aside so the code still gets only its budget.
 */
async function sandboxModule(memoryMb) {
  const budget = memoryMb * MB;
  const pages = Math.max(MIN_PAGES, Math.ceil((BASE_BYTES + budget) / PAGE));
  const wasmMemory = new WebAssembly.Memory({ initial: MIN_PAGES, maximum: pages });
  const module = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory }));
  return { module, reserve: pages * PAGE - BASE_BYTES - budget };
}

/** When QuickJS runs out of memory it may throw `null` (no room for an error object): tell that from `throw null`. */
function outOfMemory(vm) {
  const probe = vm.evalCode('new ArrayBuffer(262144)');
  if (probe.error) {
    probe.error.dispose();
    return true;
  }
  probe.value.dispose();
  return false;
}

function classify(error, timeoutMs, memoryMb) {
  if (typeof error !== 'object' || error === null) return new Failure('CODE_FAILED', `The code threw ${JSON.stringify(error) ?? 'undefined'}`);
  const name = String(error.name ?? 'Error');
  const message = String(error.message ?? '');
  if (name === 'InternalError' && message === 'interrupted') return new Failure('CODE_TIMEOUT', `The code ran longer than ${timeoutMs} ms and was stopped.`);
  if (name === 'InternalError' && message === 'out of memory') return new Failure('CODE_MEMORY_LIMIT', `The code used more than ${memoryMb} MB of memory and was stopped.`);
  return new Failure('CODE_FAILED', `The code threw ${name}: ${message.slice(0, 1000)}`);
}

function installConsole(vm, log, maxLines) {
  let lines = 0;
  const consoleHandle = vm.newObject();
  const methods = { log: 'info', info: 'info', debug: 'debug', warn: 'warn', error: 'error' };
  for (const [method, level] of Object.entries(methods)) {
    const fn = vm.newFunction(method, (...args) => {
      lines++;
      if (lines === maxLines + 1) log('warn', `console output beyond ${maxLines} lines was dropped`);
      if (lines > maxLines) return;
      const text = args
        .map((a) => {
          const v = vm.dump(a);
          return typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
        })
        .join(' ');
      log(level, text.slice(0, 4000));
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
function bodyProblem(source) {
  try {
    new Function('input', source);
    return undefined;
  } catch (e) {
    return e instanceof SyntaxError ? `SyntaxError: ${e.message}` : undefined;
  }
}

/** Runs `source` as a function body on the input (JSON text); resolves to the result as JSON text. */
async function run({ source, json, timeoutMs, memoryMb, maxLogLines }, log) {
  const problem = bodyProblem(source);
  if (problem) throw new Failure('CODE_FAILED', `The code threw ${problem}`);
  const { module, reserve } = await sandboxModule(memoryMb);
  const runtime = module.newRuntime();
  const handles = [];
  let vm;
  try {
    runtime.setMaxStackSize(STACK_BYTES);
    vm = runtime.newContext();
    installConsole(vm, log, maxLogLines);
    const fail = (h) => {
      let dumped;
      try {
        dumped = vm.dump(h);
      } catch {
        dumped = null;
      }
      h.dispose();
      if (dumped === null || dumped === undefined) {
        runtime.removeInterruptHandler();
        if (outOfMemory(vm)) dumped = { name: 'InternalError', message: 'out of memory' };
      }
      throw classify(dumped, timeoutMs, memoryMb);
    };
    const take = (r) => {
      if (r.error) return fail(r.error);
      handles.push(r.value);
      return r.value;
    };
    if (reserve >= PAGE) take(vm.evalCode(`new ArrayBuffer(${reserve})`, 'reserve.js')); // held here, out of the code's reach
    // QuickJS's own limit on top: it refuses any single allocation larger than the budget.
    runtime.setMemoryLimit(memoryMb * MB);
    const deadline = Date.now() + timeoutMs;
    runtime.setInterruptHandler(() => Date.now() > deadline);
    // The body and `(function (input) {` share line 1, so error line numbers match the user's source. It was
    // checked to be a function body on its own first (bodyProblem), so it cannot close the wrapper early.
    const fn = take(vm.evalCode(`(function (input) {${source}\n})`, 'code.js'));
    const runner = take(vm.evalCode(RUNNER, 'runner.js'));
    const inputJson = vm.newString(json);
    handles.push(inputJson);
    const out = take(vm.callFunction(runner, vm.undefined, fn, inputJson));
    return vm.getString(out);
  } catch (e) {
    if (e instanceof Failure) throw e;
    // the WebAssembly engine itself failed (an abort or assertion inside QuickJS): its text says nothing to
    // the author and names the engine's sources, so the run gets a plain answer; the instance is discarded
    throw new Failure('CODE_FAILED', 'The code stopped the JavaScript sandbox (an internal failure of its engine, e.g. from exhausting a resource); the run was stopped.');
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

// one job at a time: the pool sends the next only after this one's answer
parentPort.on('message', async (job) => {
  const log = (level, text) => parentPort.postMessage({ id: job.id, type: 'log', level, text });
  try {
    parentPort.postMessage({ id: job.id, type: 'done', json: await run(job, log) });
  } catch (e) {
    parentPort.postMessage({ id: job.id, type: 'error', code: e instanceof Failure ? e.code : 'CODE_FAILED', message: e instanceof Failure ? e.message : 'The sandbox failed.' });
  }
});
