import { connectorHeaders, connectorUrl } from '@/engine/lib/http-connector';
import { AppError } from '@/server/errors';
import { type ToolRunContext, ToolError } from './tool-types';

export type ToolImplementation =
  { type: 'http'; connector: string; method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string } | { type: 'pipeline'; pipeline_id: string };

const PLACEHOLDER = /\{\{\s*([\w-]+)\s*\}\}/g;
const MAX_TEXT = 20_000;

/** A custom HTTP tool: `{{field}}`s of the path filled from the input; the rest of the input as query (GET, DELETE) or JSON body. */
async function runHttp(t: ToolRunContext, impl: Extract<ToolImplementation, { type: 'http' }>, input: Record<string, unknown>) {
  const used = new Set<string>();
  const path = impl.path.replace(PLACEHOLDER, (_m, k: string) => {
    const v = input[k];
    if (v === undefined || v === null || typeof v === 'object')
      throw new ToolError('TOOL_INPUT_INVALID', `{{${k}}} of the tool's path has no value in the input.`);
    used.add(k);
    return encodeURIComponent(String(v));
  });
  const rest = Object.fromEntries(Object.entries(input).filter(([k]) => !used.has(k)));
  const connector = await t.services.connector(impl.connector, 'http');
  const url = connectorUrl(connector, path.startsWith('/') ? path : `/${path}`);
  if (!url) throw new ToolError('TOOL_CONFIG_INVALID', `The tool's path leaves the connector's server (${connector.endpoint}).`);
  const { headers } = connectorHeaders(connector);
  const target = new URL(url);
  const bodyless = impl.method === 'GET' || impl.method === 'DELETE';
  if (bodyless) for (const [k, v] of Object.entries(rest)) target.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  if (t.testMode && impl.method !== 'GET')
    return { simulated: true, request: { method: impl.method, url: `${target.origin}${target.pathname}${target.search}`, body: bodyless ? undefined : rest } };
  const res = await t.services.fetch(target, {
    method: impl.method,
    headers: { Accept: 'application/json, text/plain;q=0.9', ...(bodyless ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: bodyless ? undefined : JSON.stringify(rest),
    signal: t.signal,
  });
  const text = await res.text();
  let body: unknown = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… (cut)` : text;
  if ((res.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text) as unknown;
  if (!res.ok)
    throw new ToolError(
      'TOOL_HTTP_FAILED',
      `${impl.method} ${target.pathname} answered ${res.status}: ${typeof body === 'string' ? body.slice(0, 300) : JSON.stringify(body).slice(0, 300)}`,
    );
  return { status: res.status, body };
}

/**
 * Runs a deployed pipeline of the caller's organization synchronously (the run_pipeline tool and pipeline tools), through
 * the host in the caller's context (tools do not import executions: services/compose.ts joins them).
 */
export async function runPipelineForTool(t: Pick<ToolRunContext, 'ctx' | 'testMode'>, pipelineId: string, inputs: Record<string, unknown>) {
  try {
    const r = await t.ctx.host.runPipeline(t.ctx, pipelineId, inputs, t.testMode);
    if (r.status === 'running') return { execution_id: r.execution_id, status: r.status };
    return { execution_id: r.execution_id, status: r.status, outputs: r.outputs, ...(r.error ? { error: r.error } : {}) };
  } catch (e) {
    if (e instanceof AppError) throw new ToolError(e.code, e.message);
    throw e;
  }
}

/** Runs a custom tool's implementation for the caller's organization. */
export function runCustomTool(t: ToolRunContext, impl: ToolImplementation, input: Record<string, unknown>): Promise<unknown> {
  return impl.type === 'http' ? runHttp(t, impl, input) : runPipelineForTool(t, impl.pipeline_id, input);
}
