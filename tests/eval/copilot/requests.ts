/** The copilot's evaluation set: every request, with the types (fixtures.ts) the evaluation reads. */
import type { EvalRequest } from './fixtures';
import { TUNED_REQUESTS } from './requests-tuned';
import { BLIND_REQUESTS_1_3 } from './requests-blind-1-3';
import { BLIND_REQUESTS_4_6 } from './requests-blind-4-6';

export type { EvalChecks, EvalRequest, EvalSample } from './fixtures';

export const EVAL_REQUESTS: EvalRequest[] = [...TUNED_REQUESTS, ...BLIND_REQUESTS_1_3, ...BLIND_REQUESTS_4_6];
