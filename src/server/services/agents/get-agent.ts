import type { ServiceContext } from '../context';
import { agentView, type AgentView, templateView } from './agent-views';
import { findAgentRow } from './find-agent';
import { findTemplate } from './templates';

export async function getAgent(ctx: ServiceContext, id: string): Promise<AgentView> {
  const template = findTemplate(id);
  if (template) return templateView(template);
  return agentView(await findAgentRow(ctx, id));
}
