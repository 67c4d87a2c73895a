/** The copilot's evaluation set: every request, with the types (fixtures.ts) the evaluation reads. */
import type { EvalRequest } from './fixtures';
import { TUNED_REQUESTS } from './requests-tuned';
import { UNSEEN_REQUESTS } from './requests-unseen';
import { LATER_UNSEEN_REQUESTS } from './requests-unseen-late';

export type { EvalChecks, EvalRequest, EvalSample } from './fixtures';

export const EVAL_REQUESTS: EvalRequest[] = [...TUNED_REQUESTS, ...UNSEEN_REQUESTS, ...LATER_UNSEEN_REQUESTS];
