import type { PipelineDefinition } from '@/shared/pipeline';
import { FHIR, NOTE, PATIENT_CSV, TWO_FHIR, type EvalChecks, type EvalSample } from './fixtures';

/**
 * The copilot's edit evaluation (issue 31): existing pipelines, a change asked in a sentence, and checks on the
 * result. Node types or node ids may name a node in `connections`, `order` and `config` (the first node with that
 * id, else of that type).
 */
export interface EditChecks extends EvalChecks {
  /** Node ids of the pipeline as it was that must still be there. */
  kept?: string[];
  /** Node ids (or types) that must be gone. */
  removed?: string[];
  /** [source, target]: no direct connection between them any more. */
  unlinked?: [string, string][];
  /** The request cannot be done: the definition comes back as it was, and the answer says why in words. */
  refused?: boolean;
}

export interface EditEvalRequest {
  id: string;
  /** The pipeline to change: a key of BASES. */
  base: keyof typeof BASES;
  request: string;
  connectors?: { name: string; type: string }[];
  checks: EditChecks;
  /** Default: the base's sample. */
  sample?: EvalSample;
}

type N = [id: string, type: string, config?: Record<string, unknown>];

/** A definition from nodes (left to right) and links "source.port>target.port". */
function pipe(nodes: N[], links: string[]): PipelineDefinition {
  return {
    nodes: nodes.map(([id, type, config], i) => ({ id, type, config: config ?? {}, position: { x: i * 260, y: 0 } })),
    connections: links.map((l) => {
      const [from, to] = l.split('>') as [string, string];
      const [source, source_port] = from.split('.') as [string, string];
      const [target, target_port] = to.split('.') as [string, string];
      return { source, source_port, target, target_port };
    }),
  };
}

const RETRY = { retry: { max_attempts: 3, backoff_ms: 1000 } };
const withRetry = (def: PipelineDefinition, id: string): PipelineDefinition => ({
  ...def,
  nodes: def.nodes.map((n) => (n.id === id ? { ...n, settings: RETRY } : n)),
});

export const WAREHOUSE = [{ name: 'warehouse', type: 'postgres' }];

/** The pipelines the edits start from, each with a sample to dry-run the result on. */
export const BASES = {
  /** HL7 v2 ADT by hand → FHIR, returned. */
  adt: {
    sample: { file: 'hl7v2/messages/ADT-A01-01.hl7' } as EvalSample,
    definition: pipe(
      [
        ['start', 'manual-trigger', { fields: { message: 'text' } }],
        ['parse', 'hl7v2-parse'],
        ['to_fhir', 'hl7v2-to-fhir'],
        ['out', 'pipeline-output', { key: 'result' }],
      ],
      ['start.message>parse.text', 'parse.message>to_fhir.message', 'to_fhir.bundle>out.value'],
    ),
  },
  /** ORU over MLLP → FHIR, validated, written to the FHIR server; what fails validation to its own output. */
  oru_write: {
    sample: { file: 'hl7v2/messages/LAB-ORU-1.hl7' } as EvalSample,
    definition: withRetry(
      pipe(
        [
          ['listener', 'mllp-listener-trigger', { port: 2575 }],
          ['to_fhir', 'hl7v2-to-fhir'],
          ['validate', 'fhir-validate', { expect: 'bundle' }],
          ['write', 'fhir-write', { connector: 'Hospital FHIR', operation: 'transaction' }],
          ['out', 'pipeline-output', { key: 'result' }],
          ['out_invalid', 'pipeline-output', { key: 'invalid' }],
        ],
        [
          'listener.parsed>to_fhir.message',
          'to_fhir.bundle>validate.resource',
          'validate.valid>write.resource',
          'write.result>out.value',
          'validate.invalid>out_invalid.value',
        ],
      ),
      'write',
    ),
  },
  /** FHIR Bundles posted to a webhook: validated, de-identified, returned. */
  fhir_webhook: {
    sample: { ndjson: 'synthea-10/Patient.000.ndjson', take: 3, as: 'collection' } as EvalSample,
    definition: pipe(
      [
        ['webhook', 'webhook-trigger'],
        ['validate', 'fhir-validate', { expect: 'bundle' }],
        ['deidentify', 'fhir-deidentify'],
        ['out', 'pipeline-output', { key: 'result' }],
      ],
      ['webhook.body>validate.resource', 'validate.valid>deidentify.resource', 'deidentify.resource>out.value'],
    ),
  },
  /** A Bundle by hand → its Patients, returned. */
  patients: {
    sample: { ndjson: 'synthea-10/Patient.000.ndjson', take: 5, as: 'collection' } as EvalSample,
    definition: pipe(
      [
        ['start', 'manual-trigger', { fields: { bundle: 'fhir-bundle' } }],
        ['split', 'fhir-bundle-split', { types: ['Patient'] }],
        ['out', 'pipeline-output', { key: 'patients' }],
      ],
      ['start.bundle>split.bundle', 'split.resources>out.value'],
    ),
  },
  /** A Bundle by hand → FHIRPath values, de-identified, returned. */
  fhir_research: {
    sample: { ndjson: 'synthea-10/Patient.000.ndjson', take: 3, as: 'collection' } as EvalSample,
    definition: pipe(
      [
        ['start', 'manual-trigger', { fields: { bundle: 'fhir-bundle' } }],
        ['extract', 'fhirpath-extract', { expressions: { id: 'id', gender: 'gender' }, each_entry: true }],
        ['deidentify', 'fhir-deidentify'],
        ['out', 'pipeline-output', { key: 'result' }],
      ],
      ['start.bundle>extract.resource', 'extract.values>deidentify.resource', 'deidentify.resource>out.value'],
    ),
  },
  /** A clinical note by hand → a summary, returned. */
  note: {
    sample: { text: NOTE } as EvalSample,
    definition: pipe(
      [
        ['start', 'manual-trigger', { fields: { note: 'text' } }],
        ['summarize', 'summarize', { max_sentences: 3 }],
        ['out', 'pipeline-output', { key: 'summary' }],
      ],
      ['start.note>summarize.text', 'summarize.summary>out.value'],
    ),
  },
  /** X12 837 claims by hand → FHIR Claims, returned. */
  claims837: {
    sample: { file: 'x12/837_005010X222A2/demo.autoaccident.837' } as EvalSample,
    definition: pipe(
      [
        ['start', 'manual-trigger', { fields: { claims: 'text' } }],
        ['parse', 'x12-parse'],
        ['to_fhir', 'x12-837-to-fhir'],
        ['out', 'pipeline-output', { key: 'bundle' }],
      ],
      ['start.claims>parse.text', 'parse.interchange>to_fhir.interchange', 'to_fhir.bundle>out.value'],
    ),
  },
  /** 837 claims with claim edits: the rejected ones to their own output. */
  claims_checked: {
    sample: { file: 'x12/837_005010X222A2/demo.autoaccident.837' } as EvalSample,
    definition: pipe(
      [
        ['start', 'manual-trigger', { fields: { claims: 'text' } }],
        ['parse', 'x12-parse'],
        ['edits', 'claim-validate'],
        ['to_fhir', 'x12-837-to-fhir'],
        ['out', 'pipeline-output', { key: 'bundle' }],
        ['out_rejected', 'pipeline-output', { key: 'rejected' }],
      ],
      [
        'start.claims>parse.text',
        'parse.interchange>edits.interchange',
        'edits.valid>to_fhir.interchange',
        'to_fhir.bundle>out.value',
        'edits.invalid>out_rejected.value',
      ],
    ),
  },
  /** Every night: lab Observations from the EHR, one row each into the warehouse. */
  nightly: {
    sample: undefined as EvalSample | undefined,
    definition: withRetry(
      pipe(
        [
          ['schedule', 'schedule-trigger', { cron: '0 2 * * *' }],
          ['query', 'fhir-query', { connector: 'Hospital FHIR', query: 'Observation?category=laboratory&_count=100' }],
          ['split', 'fhir-bundle-split'],
          ['db_write', 'postgres-write', { connector: 'warehouse', table: 'lab_results', columns: { id: 'id', resource: '$' } }],
          ['out', 'pipeline-output', { key: 'result' }],
        ],
        ['schedule.event>query.params', 'query.bundle>split.bundle', 'split.resources>db_write.rows', 'db_write.result>out.value'],
      ),
      'db_write',
    ),
  },
  /** A CSV of patients by hand → rows into the warehouse. */
  csv_load: {
    sample: { text: PATIENT_CSV } as EvalSample,
    definition: withRetry(
      pipe(
        [
          ['start', 'manual-trigger', { fields: { csv: 'text' } }],
          ['parse', 'csv-parse'],
          ['db_write', 'postgres-write', { connector: 'warehouse', table: 'patients' }],
          ['out', 'pipeline-output', { key: 'result' }],
        ],
        ['start.csv>parse.text', 'parse.rows>db_write.rows', 'db_write.result>out.value'],
      ),
      'db_write',
    ),
  },
};

export { FHIR, TWO_FHIR };
