import { getNodeType } from '@/engine/nodes';
import { validateDefinition, type ValidationReport } from '@/engine/validate';

export function validatePipelineDefinition(definition: unknown): ValidationReport {
  return validateDefinition(definition, getNodeType);
}
