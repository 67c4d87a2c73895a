'use client';

import { useState } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { appError, errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import type { PipelineSummary } from './types';

/**
 * Confirms deleting a pipeline. A deployed pipeline cannot be deleted: the dialog says so and offers to
 * undeploy it first; if the server refuses (it was deployed meanwhile), its message is shown here.
 */
export function DeletePipelineDialog({ pipeline, onClose }: { pipeline: PipelineSummary | null; onClose: () => void }) {
  const utils = api.useUtils();
  const [deployed, setDeployed] = useState(pipeline?.status === 'deployed');
  const [refusal, setRefusal] = useState<string | null>(null);

  const remove = api.pipelines.remove.useMutation({
    onSuccess: async () => {
      toast.success(`Pipeline “${pipeline?.name}” deleted`);
      await utils.pipelines.list.invalidate();
      onClose();
    },
    onError: (e) => {
      if (appError(e)?.code === 'PIPELINE_DEPLOYED') {
        setDeployed(true);
        setRefusal(errorMessage(e));
        void utils.pipelines.list.invalidate();
      }
    },
  });
  const undeploy = api.pipelines.undeploy.useMutation({
    onSuccess: async (p) => {
      toast.success(`“${p.name}” is undeployed`, { description: 'You can delete it now.' });
      setDeployed(false);
      setRefusal(null);
      remove.reset();
      await utils.pipelines.list.invalidate();
    },
  });

  const name = pipeline?.name ?? '';
  const otherError = remove.error && !refusal ? errorMessage(remove.error) : undeploy.error ? errorMessage(undeploy.error) : null;

  if (deployed) {
    return (
      <ConfirmDialog
        open={pipeline !== null}
        onClose={onClose}
        onConfirm={() => pipeline && undeploy.mutate({ id: pipeline.id })}
        title={`Can't delete “${name}” yet`}
        confirmLabel="Undeploy"
        pending={undeploy.isPending}
        error={otherError}
      >
        {refusal ? (
          <Alert title="The server refused to delete this pipeline">{refusal}</Alert>
        ) : (
          <p className="text-sm text-slate-600">
            This pipeline is deployed, and deployed pipelines cannot be deleted. Undeploy it first (its schedules stop), then delete it.
          </p>
        )}
      </ConfirmDialog>
    );
  }

  return (
    <ConfirmDialog
      open={pipeline !== null}
      onClose={onClose}
      onConfirm={() => pipeline && remove.mutate({ id: pipeline.id })}
      title={`Delete “${name}”?`}
      confirmLabel="Delete pipeline"
      danger
      pending={remove.isPending}
      error={otherError}
    >
      <p className="text-sm text-slate-600">
        The pipeline and all of its {pipeline?.version ?? 1} saved version{pipeline?.version === 1 ? '' : 's'} are removed for good. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
