import { compileJsonata, evaluateJsonata } from './jsonata';

const PLACEHOLDER = /\{\{([\s\S]+?)\}\}/g;

/** The JSONata expressions inside `{{ … }}` of a template (compiled once; a syntax error is a NodeError INVALID_EXPRESSION). */
export function templateExpressions(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!.trim());
}

/**
 * Fills a text template: each `{{ expression }}` is a JSONata expression over `input` (`{{ error.code }}`,
 * `{{ $uppercase(pipeline.name) }}`); strings are inserted as they are, other values as JSON, nothing as "".
 */
export async function fillTemplate(template: string, input: unknown, code: string): Promise<string> {
  const values = await Promise.all(templateExpressions(template).map((e) => evaluateJsonata(compileJsonata(e), input, code)));
  let i = 0;
  return template.replace(PLACEHOLDER, () => {
    const v = values[i++];
    return v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  });
}
