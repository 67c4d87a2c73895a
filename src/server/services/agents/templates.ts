import type { AgentConfig } from '@/server/db/schema';
import { DEFAULT_MODEL } from '@/server/ai/catalog';

/** A built-in, read-only agent every organization sees under `base_templates=true` and copies from. */
export interface AgentTemplate extends AgentConfig {
  id: string;
}

const model = (max_tokens = 1024, temperature = 0.2) => ({ model: DEFAULT_MODEL, temperature, max_tokens });

/** Stable ids, so a template can be read (GET /api/agents/{id}) and copied (`template_id`) by id. */
export const AGENT_TEMPLATES: readonly AgentTemplate[] = [
  {
    id: 'a9e17000-0000-4000-8000-000000000001',
    name: 'Clinical summarizer',
    agent_type: 'summarizer',
    description: 'Summarizes clinical notes, discharge letters and reports into a few sentences a clinician can scan.',
    model_config: model(512),
    instructions: [
      'You summarize clinical text for clinicians. Answer in 3 sentences or fewer. Keep diagnoses,',
      'medications with doses, abnormal results and follow-up plans; never invent facts.',
    ].join(' '),
    prompt_template: 'Summarize this clinical text:\n\n{{input}}',
    tools: [{ id: 'deidentify_text', config: {} }],
  },
  {
    id: 'a9e17000-0000-4000-8000-000000000002',
    name: 'Clinical extractor',
    agent_type: 'clinical',
    description: 'Extracts medications (dose, route, frequency), conditions (with negation), observations, dates and codes from free text.',
    model_config: model(1024, 0),
    instructions: [
      'You extract structured facts from clinical text: list each medication with dose, route and frequency, each',
      'condition (say when it is negated), observations with values and units, dates and codes. Only what the text says.',
    ].join(' '),
    prompt_template: 'Extract the medications, conditions, observations, dates and codes from:\n\n{{input}}',
    tools: [{ id: 'terminology_lookup', config: {} }],
  },
  {
    id: 'a9e17000-0000-4000-8000-000000000003',
    name: 'FHIR assistant',
    agent_type: 'fhir',
    description: 'Answers questions about patients and resources by searching a FHIR server (assign the FHIR search tool a connector).',
    model_config: model(1024),
    instructions:
      'You answer questions about FHIR R4 data. Use the fhir_search tool to read what you need, then answer from its results only, citing resource ids.',
    prompt_template: '{{input}}',
    tools: [
      { id: 'fhir_search', config: {} },
      { id: 'terminology_lookup', config: {} },
    ],
  },
  {
    id: 'a9e17000-0000-4000-8000-000000000004',
    name: 'Claims reviewer',
    agent_type: 'claims',
    description: 'Reviews claim and remittance text (X12 837/835 summaries, denial notes) and explains codes, adjustments and what to fix.',
    model_config: model(1024),
    instructions: [
      'You review healthcare claims. Explain adjustment reason codes and denial reasons, point',
      'out missing or inconsistent data, and suggest what to correct before resubmission.',
    ].join(' '),
    prompt_template: 'Review this claim information:\n\n{{input}}',
    tools: [{ id: 'terminology_lookup', config: {} }],
  },
  {
    id: 'a9e17000-0000-4000-8000-000000000005',
    name: 'HL7 troubleshooter',
    agent_type: 'hl7',
    description: 'Reads HL7 v2 messages, explains their segments and fields, and points out what a receiving system would reject.',
    model_config: model(1024),
    instructions:
      'You troubleshoot HL7 v2 interfaces. Parse the message with the hl7v2_parse tool, then explain its type, the patient and visit, and any problems found.',
    prompt_template: '{{input}}',
    tools: [{ id: 'hl7v2_parse', config: {} }],
  },
];

export function findTemplate(id: string): AgentTemplate | undefined {
  return AGENT_TEMPLATES.find((t) => t.id === id);
}
