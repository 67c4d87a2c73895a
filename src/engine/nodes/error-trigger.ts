import { z } from 'zod';
import { SAMPLE_ERROR_EVENT } from '@/shared/error-event';
import { describeNode } from '../node-descriptor';

const Config = z.object({});

export const errorTrigger = describeNode({
  id: 'error-trigger',
  name: 'Error trigger',
  idBase: 'on_error',
  category: 'control',
  description: 'Starts this pipeline when a production run of a pipeline that names it as its error pipeline fails.',
  version: '1.0.0',
  keywords: ['error', 'failure', 'alert', 'alarm', 'notify', 'monitor', 'on-call', 'trigger'],
  side_effect: 'none',
  trigger: {
    events: ['error'],
    toInputs: (event) => (event.kind === 'error' ? event.event : {}),
    sampleInputs: () => ({ ...SAMPLE_ERROR_EVENT }),
  },
  documentation: [
    'Makes this pipeline an **error pipeline**: another pipeline names it in its Settings tab (or',
    '`PUT /api/pipelines/{id}/alerts`), and when one of that pipeline’s **production** runs fails, this pipeline',
    'starts (it must be deployed) with an `error-event`:',
    '```json',
    '{"pipeline": {"id": "…", "name": "ADT feed"}, "version": 3,',
    ' "execution": {"id": "…", "url": "https://clinflow.example.org/executions/…"},',
    ' "node": {"id": "fhir_write", "type": "fhir-write"},',
    ' "error": {"code": "FHIR_WRITE_FAILED", "message": "The FHIR server answered 503"},',
    ' "attempt": 3, "trigger": "mllp", "failed_at": "2026-01-05T02:00:00.000Z", "held_back": 0}',
    '```',
    'Test runs, step sessions and the error pipeline’s own failures never start it (no loops). At most one',
    'event per pipeline and error code is sent within the pipeline’s alert window; `held_back` counts the',
    'failures held back since the previous one.',
    '',
    '**Example**: `error-trigger` → `send-email` (an `smtp` connector, subject',
    '`{{ pipeline.name }} failed: {{ error.code }}`), or → `http-request` to a chat webhook.',
  ].join('\n'),
  config: Config,
  example: {},
  plan: {
    role: 'trigger',
    stage: 'trigger',
    search: false,
  },
  ports: () => ({
    inputs: [],
    outputs: [{ name: 'event', type: 'error-event', description: 'The failed run: pipeline, version, execution, node, error, attempt, held_back' }],
  }),
  errors: {},
});
