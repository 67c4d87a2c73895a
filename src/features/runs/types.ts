import { EXECUTION_STATUSES, type ExecutionStatus } from '@/shared/statuses';
import type { RouterOutputs } from '@/trpc/react';

export { EXECUTION_STATUSES, type ExecutionStatus };

export type ExecutionSummary = RouterOutputs['executions']['list']['executions'][number];
export type ExecutionDetail = RouterOutputs['executions']['get'];
export type ExecutionNode = ExecutionDetail['nodes'][number];
export type ExecutionStats = RouterOutputs['executions']['stats'];

export const PAGE_SIZE = 20;

export function isExecutionStatus(s: string | null): s is ExecutionStatus {
  return s !== null && (EXECUTION_STATUSES as readonly string[]).includes(s);
}

/** Still under way: worth polling. */
export function isLive(status: string): boolean {
  return status === 'queued' || status === 'running';
}

export function shortId(id: string): string {
  return id.slice(0, 8);
}
