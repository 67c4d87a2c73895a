import { listLanguageModels } from '@/server/ai/models';
import type { AgentConfig, AssignedTool } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { builtinTool } from '../tools/builtin';
import { findCustomTool } from '../tools/tools';

export interface AgentInput {
  name?: string;
  agent_type?: string;
  description?: string;
  model_config?: Partial<AgentConfig['model_config']>;
  prompt_template?: string;
  instructions?: string;
  /** Tool ids (a built-in tool's name, or a custom tool's id or name). */
  tools?: string[];
  project_id?: string | null;
  template_id?: string;
  is_active?: boolean;
}

export function invalid(path: string, message: string): never {
  throw new AppError('VALIDATION_FAILED', `The agent is not valid: ${path}: ${message}.`, [{ path, message }]);
}

/** A model id the service knows (it may still lack its provider's key: chat and deploy say so). */
export function checkModel(model: string) {
  const entry = listLanguageModels().find((m) => m.id === model);
  const open = /^(openai|anthropic)\/.+/.test(model);
  if (!entry && !open)
    throw new AppError('MODEL_NOT_FOUND', `Unknown language model "${model}": GET /api/llm-models lists the models (clinflow/offline is always available).`);
  return entry;
}

/** Tool ids resolved to assignments, keeping the settings of tools already assigned. */
export async function resolveTools(ctx: ServiceContext, ids: string[], current: AssignedTool[] = []): Promise<AssignedTool[]> {
  const out: AssignedTool[] = [];
  for (const [i, ref] of ids.entries()) {
    const id = builtinTool(ref)?.id ?? (await findCustomTool(ctx, ref))?.id;
    if (!id) invalid(`tools.${i}`, `no tool "${ref}": GET /api/tools lists the built-in tools and this organization's own`);
    if (out.some((t) => t.id === id)) continue;
    out.push({ id, config: current.find((t) => t.id === id)?.config ?? {} });
  }
  return out;
}
