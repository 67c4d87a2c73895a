import { implementNode } from '../node-type';
import { scheduleTrigger } from './schedule-trigger';

export const scheduleTriggerNode = implementNode(scheduleTrigger, {
  async execute(ctx, _inputs, config) {
    const event = { scheduled_at: new Date().toISOString(), ...config.inputs, ...ctx.executionInputs };
    return { outputs: { event } };
  },
  activate: (host, target, config) => host.schedule(target, config.cron, config.timezone),
  deactivate: (host, target) => host.unschedule(target),
});
