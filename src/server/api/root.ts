import { agentsRouter } from './routers/agents/router';
import { alertsRouter } from './routers/alerts/router';
import { auditRouter } from './routers/audit/router';
import { accountRouter } from './routers/account/router';
import { catalogRouter } from './routers/catalog/router';
import { copilotRouter } from './routers/copilot/router';
import { connectorsRouter } from './routers/connectors/router';
import { executionsRouter } from './routers/executions/router';
import { keysRouter } from './routers/keys/router';
import { membersRouter } from './routers/members/router';
import { modelsRouter } from './routers/models/router';
import { organizationRouter } from './routers/organization/router';
import { pipelinesRouter } from './routers/pipelines/router';
import { storageRouter } from './routers/storage/router';
import { toolsRouter } from './routers/tools/router';
import { transferRouter } from './routers/transfer/router';
import { createCallerFactory, router } from './trpc';

export const appRouter = router({
  transfer: transferRouter,
  pipelines: pipelinesRouter,
  keys: keysRouter,
  members: membersRouter,
  organization: organizationRouter,
  account: accountRouter,
  catalog: catalogRouter,
  connectors: connectorsRouter,
  executions: executionsRouter,
  models: modelsRouter,
  agents: agentsRouter,
  tools: toolsRouter,
  copilot: copilotRouter,
  storage: storageRouter,
  audit: auditRouter,
  alerts: alertsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
