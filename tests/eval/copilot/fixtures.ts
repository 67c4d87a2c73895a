/**
 * The copilot's evaluation set (issue 10): realistic requests (requests-tuned.ts, requests-blind-*.ts: written blind, before the planner had seen them, then tuned on), each with checks on the pipeline planned for
 * it and, where one fits, a sample input to dry-run it with. Samples are files of the shared sample data
 * (../shared/data, paths relative to it), read as they are; a few small inline texts where the data has none
 * (CSV, a dictated note). `scripts/eval-copilot.ts` runs them.
 */

export interface EvalChecks {
  /** The trigger's node type. */
  trigger?: string;
  /** Node types the pipeline must have. */
  nodes?: string[];
  /** Node types it must not have. */
  absent?: string[];
  /** [source type, target type]: a connection from a node of the one to a node of the other. */
  connections?: [string, string][];
  /** Node types that must come in this order along the connections (each downstream of the one before). */
  order?: string[];
  /** Config values: the first node of `type` has `equals` at `path` (dotted). */
  config?: { type: string; path: string; equals: unknown }[];
}

export type EvalSample =
  /** A text file (HL7 v2, X12) of the shared data. */
  | { file: string }
  /** Resources of an NDJSON file of the shared data: the first one, a Bundle of the first `take`, or a list. */
  | { ndjson: string; take?: number; as: 'resource' | 'transaction' | 'collection' | 'list' }
  | { text: string };

export interface EvalRequest {
  id: string;
  request: string;
  connectors?: { name: string; type: string }[];
  checks: EvalChecks;
  sample?: EvalSample;
}

export const HL7 = (name: string) => ({ file: `hl7v2/messages/${name}` });
export const X12 = (path: string) => ({ file: `x12/${path}` });
export const FHIR = [{ name: 'Hospital FHIR', type: 'fhir' }];
export const TWO_FHIR = [
  { name: 'EHR', type: 'fhir' },
  { name: 'Research FHIR', type: 'fhir' },
];

export const LAB_CSV = [
  'patient_id,loinc,test,value,unit,abnormal_flag',
  '123,2823-3,Potassium,6.4,mmol/L,H',
  '123,2345-7,Glucose,98,mg/dL,N',
  '456,2823-3,Potassium,4.1,mmol/L,N',
].join('\n');
export const PATIENT_CSV = ['mrn,family,given,birth_date,gender', 'A1001,Smith,Anna,1980-02-14,female', 'A1002,Jones,Robert,1955-11-02,male'].join('\n');
export const NOTE =
  'Patient is a 67 year old man admitted with chest pain. History of hypertension and type 2 diabetes. ' +
  'Started aspirin 81 mg po daily and lisinopril 10 mg po daily. BP 150/95 mmHg. Denies fever. Plan: stress test tomorrow.';
