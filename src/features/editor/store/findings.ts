import type { Finding } from '../types';
import type { EditorSlice } from './index';

/** The validator's findings on the canvas: by node, and those of the whole pipeline. */
export interface FindingsSlice {
  errors: Record<string, Finding[]>;
  warnings: Record<string, Finding[]>;
  pipelineFindings: { errors: Finding[]; warnings: Finding[] };
  setFindings(errors: Finding[], warnings: Finding[]): void;
}

function byNode(findings: Finding[]): Record<string, Finding[]> {
  const out: Record<string, Finding[]> = {};
  for (const f of findings) if (f.node_id) (out[f.node_id] ??= []).push(f);
  return out;
}

export const findingsSlice: EditorSlice<FindingsSlice> = (set) => ({
  errors: {},
  warnings: {},
  pipelineFindings: { errors: [], warnings: [] },
  setFindings(errors, warnings) {
    set({
      errors: byNode(errors),
      warnings: byNode(warnings),
      pipelineFindings: { errors: errors.filter((f) => !f.node_id), warnings: warnings.filter((f) => !f.node_id) },
    });
  },
});
