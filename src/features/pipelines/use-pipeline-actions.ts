'use client';

import { toast } from 'sonner';
import { errorMessage, findingLines } from '@/trpc/errors';
import { api } from '@/trpc/react';

/** Deploy and undeploy with toasts and a refreshed list. */
export function useDeployActions() {
  const utils = api.useUtils();
  const onSettled = () => utils.pipelines.list.invalidate();
  const deploy = api.pipelines.deploy.useMutation({
    onSuccess: (p) =>
      toast.success(`“${p.name}” v${p.deployed_version} is live`, {
        description: 'Production runs (API, webhooks, schedules, listeners) use this version until you publish another.',
      }),
    onError: (e) => {
      const findings = findingLines(e);
      toast.error(findings.length ? 'Fix these problems before deploying' : 'Could not deploy the pipeline', {
        description: findings.length ? findings.join('\n') : errorMessage(e),
        classNames: { description: 'whitespace-pre-line' },
      });
    },
    onSettled,
  });
  const undeploy = api.pipelines.undeploy.useMutation({
    onSuccess: (p) => toast.success(`“${p.name}” is undeployed`, { description: 'Its schedules are stopped.' }),
    onError: (e) => toast.error('Could not undeploy the pipeline', { description: errorMessage(e) }),
    onSettled,
  });
  return { deploy, undeploy };
}
