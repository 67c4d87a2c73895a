import type { DataPolicy } from '@/shared/data-settings';

/** An execution this process admitted to run itself (the MLLP feed): what a worker's first read of its row would find. */
export interface AdmittedRun {
  orgId: string;
  pipelineId: string;
  pipelineVersion: number;
  trigger: string;
  inputs: Record<string, unknown>;
  /** The pipeline's data policy as it was read in the admitting transaction. */
  policy: DataPolicy;
}

/**
 * Executions admitted by this process and handed to its own dispatcher (Queue.runClaimed), until their run takes
 * them: the run then needs no read of the row it has just written. Only a job's first delivery in this process
 * finds one; a redelivered job (elsewhere, or after a failure) reads the row as any other.
 */
const admitted = new Map<string, AdmittedRun>();

export function noteAdmitted(executionId: string, run: AdmittedRun): void {
  admitted.set(executionId, run);
}

export function takeAdmitted(executionId: string): AdmittedRun | undefined {
  const run = admitted.get(executionId);
  admitted.delete(executionId);
  return run;
}
