import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { agent } from './agent';

export const agentNode = implementNode(agent, {
  async execute(ctx, inputs, config) {
    const id = config.agent_id.trim();
    if (!id) throw new NodeError('AGENT_REQUIRED', 'Set `agent_id` to the agent to run (open it on the Agents page: its id is in the address).');
    const input = inputs.input;
    const data =
      input && typeof input === 'object' && !Array.isArray(input)
        ? (input as Record<string, unknown>)
        : { text: typeof input === 'string' ? input : JSON.stringify(input ?? null) };
    const r = await ctx.services.agent(id, data, { testMode: ctx.testMode });
    ctx.log(
      'info',
      [
        `${r.usage.model}: ${r.usage.input_tokens} input + ${r.usage.output_tokens}`,
        `output tokens in ${r.usage.latency_ms} ms (conversation ${r.conversation_id})`,
      ].join(' '),
    );
    return { outputs: { output: r.output, steps: r.reasoning_steps, usage: { ...r.usage, conversation_id: r.conversation_id } } };
  },
});
