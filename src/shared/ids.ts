/** One UUID pattern for the server and the browser (ids of pipelines, executions, agents…), any version. */
export const UUID_PATTERN = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const UUID = new RegExp(`^${UUID_PATTERN}$`, 'i');

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** `agent/<uuid>:execute`, the scope that allows invoking that one agent; group 1 is the agent id. */
export const AGENT_SCOPE = new RegExp(`^agent\\/(${UUID_PATTERN}):execute$`);
