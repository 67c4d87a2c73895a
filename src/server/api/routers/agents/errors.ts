/** The errors most agent operations can answer, listed in their OpenAPI documentation. */
export const NOT_FOUND = ['AGENT_NOT_FOUND', 'AGENT_TEMPLATE_READ_ONLY'] as const;
/** What running an agent (chat, a message, invoke) can fail with. */
export const RUN = [
  'MODEL_UNAVAILABLE',
  'AGENT_INACTIVE',
  'AGENT_VERSION_NOT_FOUND',
  'CONVERSATION_NOT_FOUND',
  'CONVERSATION_BUSY',
  'LLM_FAILED',
  'AGENT_TIMEOUT',
] as const;
