import type { ServiceHost } from './context';
import { agentServices } from './agents/node-turn';
import { execute } from './executions/execute';
import { nodeServices } from './executions/node-services';

/**
 * The composition root of the services (issue 29, item 5): the one place where the areas that call one another in a
 * circle are joined. A pipeline's agent node runs an agent, whose tools run pipelines; executions, agents and tools
 * each know only the ServiceHost handed to them in their context, and none imports another upward. The runtime
 * (server/runtime.ts) puts this host in every service context; the queue's jobs (server/jobs.ts) run with it too.
 */
export const serviceHost: ServiceHost = {
  nodeServices: (db, orgId) => nodeServices(db, orgId, agentServices({ db, host: serviceHost }, orgId)),
  runPipeline: (ctx, pipelineId, inputs, testMode) => execute(ctx, { pipeline_id: pipelineId, inputs, async: false, test_mode: testMode }),
};
