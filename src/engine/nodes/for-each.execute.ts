import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { forEach } from './for-each';

export const forEachNode = implementNode(forEach, {
  async execute(ctx, inputs, config) {
    const items = inputs.items;
    if (!Array.isArray(items)) {
      const got = items === null ? 'null' : typeof items;
      throw new NodeError('NOT_AN_ARRAY', `"items" must be an array, got ${got}.`);
    }
    const results: unknown[] = new Array(items.length);
    let next = 0;
    let failure: NodeError | undefined;
    const worker = async () => {
      while (!failure && next < items.length) {
        if (ctx.signal.aborted) {
          failure = new NodeError('CANCELLED', `Stopped after ${next} of ${items.length} items: the execution was cancelled.`);
          return;
        }
        const index = next++;
        try {
          results[index] = await ctx.runSubgraph(config.body, { item: items[index], index });
        } catch (e) {
          failure ??= new NodeError('FOR_EACH_ITEM_FAILED', `Item ${index} failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    };
    const workers = Math.min(config.concurrency, items.length);
    await Promise.all(Array.from({ length: workers }, worker));
    if (failure) throw failure;
    ctx.log('info', `ran ${items.length} item(s), ${workers} at a time`);
    return { outputs: { results } };
  },
});
