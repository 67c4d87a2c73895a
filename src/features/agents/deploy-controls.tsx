'use client';

import { Rocket, Square } from 'lucide-react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { appError, errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import type { Agent } from './types';

/** What a refusal to deploy says, with the problems (AGENT_INVALID) one per line. */
function DeployError({ error }: { error: unknown }) {
  const app = appError(error);
  const problems = app?.code === 'AGENT_INVALID' && Array.isArray(app.details) ? (app.details as { path?: string; message?: string }[]) : [];
  if (!problems.length) return <Alert title="Could not change the deployment">{errorMessage(error)}</Alert>;
  return (
    <Alert title="The agent cannot be deployed yet">
      <ul className="list-disc space-y-0.5 pl-4">
        {problems.map((p, i) => (
          <li key={i}>{p.message ?? p.path}</li>
        ))}
      </ul>
    </Alert>
  );
}

/** Deploy / Undeploy, and why a deploy was refused. */
export function useDeploy(agent: Agent) {
  const utils = api.useUtils();
  const done = (a: Agent) => {
    utils.agents.get.setData({ id: a.id }, a);
    void utils.agents.list.invalidate();
    void utils.agents.versions.invalidate({ id: a.id });
  };
  const deploy = api.agents.deploy.useMutation({ onSuccess: (a) => (done(a), toast.success(`${a.name} is deployed`)) });
  const undeploy = api.agents.undeploy.useMutation({ onSuccess: (a) => (done(a), toast.success(`${a.name} is no longer deployed`)) });
  const error = deploy.error ?? undeploy.error;
  const button =
    agent.status === 'deployed' ? (
      <Button
        variant="secondary"
        icon={<Square className="size-4" aria-hidden />}
        loading={undeploy.isPending}
        onClick={() => (deploy.reset(), undeploy.mutate({ id: agent.id }))}
      >
        Undeploy
      </Button>
    ) : (
      <Button
        icon={<Rocket className="size-4" aria-hidden />}
        loading={deploy.isPending}
        disabled={agent.status === 'inactive'}
        onClick={() => (undeploy.reset(), deploy.mutate({ id: agent.id }))}
      >
        Deploy
      </Button>
    );
  return { button, error: error ? <DeployError error={error} /> : null };
}
