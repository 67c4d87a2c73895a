/** The statuses an execution goes through (DESIGN.md §3), in the order it can reach them. */
export const EXECUTION_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/** The statuses of a node in an execution record. */
export const NODE_STATUSES = ['pending', 'running', 'completed', 'failed', 'skipped', 'simulated'] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

/**
 * Why a node was skipped: its branch was not taken (or nothing reached it), an upstream node failed, the
 * execution stopped at a failure before the node's turn came, the node is disabled (it passed its input
 * through), or a test run "to here" did not ask for it (not the chosen node nor upstream of it).
 */
export const SKIP_REASONS = ['branch_not_taken', 'upstream_failed', 'execution_stopped', 'disabled', 'not_requested'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** A skip reason in words, for the editor and the execution pages. */
export const SKIP_REASON_TEXT: Record<SkipReason, string> = {
  branch_not_taken: 'did not run: its branch was not taken',
  upstream_failed: 'did not run: an upstream node failed',
  execution_stopped: 'did not run: the execution stopped at a failure',
  disabled: 'did not run: it is disabled (its input passed through)',
  not_requested: 'did not run: the test run stopped at the node chosen to run to',
};
