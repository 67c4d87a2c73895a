import { validatePipelineDefinition } from '../pipelines/validate-definition';
import { PipelineDefinition } from '@/shared/pipeline';
import { copilotFindings } from './checks';

const view = (f: { node_id: string | null; code: string; message: string }) => ({ node_id: f.node_id, code: f.code, message: f.message });

/**
 * POST /api/copilot/validate/pipeline: the engine's validator (shape, types, configs, port types, cycles,
 * triggers, reachability) and the copilot's own checks (patient data to an external model, FHIR written
 * without validation, writes without retry) as warnings. `valid` is the engine's verdict.
 */
export function validateForCopilot(definition: unknown) {
  const report = validatePipelineDefinition(definition);
  const parsed = PipelineDefinition.safeParse(definition);
  const extra = parsed.success ? copilotFindings(parsed.data) : [];
  return { valid: report.valid, errors: report.errors.map(view), warnings: [...report.warnings, ...extra].map(view) };
}
