import { AGENT_TEMPLATES } from '@/server/services/agents/templates';

export interface AgentProposal {
  name: string;
  agent_type: string;
  description: string;
  model_config: { model: string; temperature: number; max_tokens: number };
  instructions: string;
  prompt_template: string;
  tools: Array<{ id: string; config: Record<string, unknown> }>;
}

/** The kind of agent a request describes, by its words; the template of that kind is the starting point. */
const KINDS: Array<[RegExp, string]> = [
  [/\b(claims?|837|835|remittance|denial|adjudicat\w*|billing|eob)\b/, 'claims'],
  [/\b(hl7|adt|oru|orm|segment|interface|mllp|msh)\b/, 'hl7'],
  [/\b(fhir|patient record|patients'? data|chart|resources?)\b/, 'fhir'],
  [/\b(extract\w*|structured|coding|code the|medications? and conditions)\b/, 'clinical'],
  [/\b(summar\w*|condense|brief|tl;?dr|handoff|hand-off)\b/, 'summarizer'],
];

/** Tools a request asks for, beyond its template's. */
const TOOLS: Array<[RegExp, string]> = [
  [/\b(look ?up|terminolog\w*|codes?|loinc|snomed|icd)\b/, 'terminology_lookup'],
  [/\b(de-?identif\w*|anonymi[sz]\w*|phi|redact\w*|privacy)\b/, 'deidentify_text'],
  [/\b(hl7|adt|segment|msh)\b/, 'hl7v2_parse'],
  [/\b(fhir|search (?:the )?(?:server|records?)|patient records?)\b/, 'fhir_search'],
  [/\b(pipeline|convert and|run the)\b/, 'run_pipeline'],
];

const titleCase = (s: string) => s.replace(/\b\w/g, (c) => c.toUpperCase());

/** A short name from the request: its first clause, without "an agent that…". */
function nameOf(description: string, fallback: string): string {
  const core = description
    .replace(/^\s*(please\s+)?(create|make|build|generate|i need|i want|give me)\s+(me\s+)?(an?\s+)?/i, '')
    .replace(/^(agent|assistant|bot)\s+(that|which|to|who)\s+/i, '')
    .split(/[.,;:\n]/)[0]!
    .trim();
  const words = core.split(/\s+/).filter(Boolean).slice(0, 6).join(' ');
  return words.length >= 3 ? titleCase(words).slice(0, 80) : fallback;
}

/**
 * An agent configuration from a plain-language description (offline, rule-based): the kind is read from its words
 * and the matching base template is the starting point; the description becomes the agent's description and
 * leads its instructions; the tools the request names are added.
 */
export function proposeAgent(description: string): { agent: AgentProposal; reasoning: string[] } {
  const text = description.toLowerCase();
  const why: string[] = [];
  const kind = KINDS.find(([re]) => re.test(text))?.[1];
  const template = AGENT_TEMPLATES.find((t) => t.agent_type === kind);
  why.push(template ? `kind "${kind}": starting from the template "${template.name}"` : 'no kind recognised: a general agent');
  const tools = [...(template?.tools ?? [])];
  for (const [re, id] of TOOLS) {
    if (re.test(text) && !tools.some((t) => t.id === id)) {
      tools.push({ id, config: {} });
      why.push(`the request mentions what ${id} does: assigned`);
    }
  }
  const instructions = [
    description.trim().replace(/\s+/g, ' '),
    template?.instructions ?? 'Answer from the conversation and your tools only; say when you do not know.',
  ].join('\n\n');
  return {
    agent: {
      name: nameOf(description, template?.name ?? 'New agent'),
      agent_type: kind ?? 'custom',
      description: description.trim().slice(0, 500),
      model_config: template?.model_config ?? { model: 'clinflow/offline', temperature: 0.2, max_tokens: 1024 },
      instructions,
      prompt_template: template?.prompt_template ?? '{{input}}',
      tools,
    },
    reasoning: why,
  };
}
