'use client';

import { toast } from 'sonner';
import { Spinner } from '@/components/ui/spinner';
import { RunDataForm } from '@/features/data-settings/run-data-form';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { useEditorActions } from './actions-context';
import { AlertSettings } from './alert-settings';

/**
 * The pipeline's settings that are not its definition: "Run data" (what its runs keep and for how long). Saved at
 * once, without a new version or a deploy: the next run applies it.
 */
export function SettingsPanel() {
  const { pipelineId } = useEditorActions();
  const utils = api.useUtils();
  const pipeline = api.pipelines.get.useQuery({ id: pipelineId }, { refetchOnWindowFocus: false });
  const update = api.pipelines.update.useMutation({
    onSuccess: async () => {
      await utils.pipelines.get.invalidate({ id: pipelineId });
      toast.success('Run data settings saved: they apply from the next run');
    },
  });
  if (pipeline.isPending) return <Spinner label="Loading settings…" />;
  if (pipeline.isError) return <p className="p-4 text-sm text-red-700">{errorMessage(pipeline.error)}</p>;
  const view = pipeline.data.metadata.data_settings;
  return (
    <section className="space-y-3 p-4" aria-labelledby="run-data-heading">
      <div>
        <h2 id="run-data-heading" className="text-sm font-semibold text-slate-900">
          Run data
        </h2>
        <p className="text-xs text-slate-500">What this pipeline&apos;s production runs keep, and for how long. Applies from the next run, without a deploy.</p>
      </div>
      <RunDataForm
        // a saved change (or one made elsewhere) starts the form again from what is stored
        key={JSON.stringify(view.overrides)}
        view={view}
        scope="pipeline"
        saving={update.isPending}
        error={update.error ? errorMessage(update.error) : null}
        onSave={(change) => update.mutate({ id: pipelineId, data_settings: change })}
      />
      <div className="border-t border-slate-200 pt-3">
        <h2 className="text-sm font-semibold text-slate-900">Alerts</h2>
        <p className="mb-2 text-xs text-slate-500">Who hears about it when a production run of this pipeline fails.</p>
        <AlertSettings pipelineId={pipelineId} />
      </div>
    </section>
  );
}
