/**
 * Outbound errors live in src/shared/outbound-error.ts (the engine and the MLLP framing in src/clinical use them too).
 * Kept for executions/node-services.ts until it imports them from there (issue 29, item 4).
 */
export { OutboundError, socketErrorInWords, type OutboundErrorCode } from '@/shared/outbound-error';
