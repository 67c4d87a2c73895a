/**
 * Whether `source` is a function body on its own, checked as the code node's sandbox checks it before running
 * (code-sandbox-worker.mjs): parsed by the Function constructor, never called.
 */
export function syntaxProblem(source: string): string | null {
  try {
    new Function('input', source);
    return null;
  } catch (e) {
    return e instanceof SyntaxError ? `SyntaxError: ${e.message}` : null;
  }
}
