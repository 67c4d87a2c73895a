'use client';

import { Rocket } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useDeployActions } from '@/features/pipelines/use-pipeline-actions';
import { api } from '@/trpc/react';
import { VersionDiffDialog } from './version-dialogs';
import type { Pipeline } from './types';
import { cn } from '@/components/ui/cn';

/** The version production runs while a later one is saved: `deployed_version` behind `version`. */
export function liveBehind(pipeline: Pick<Pipeline, 'status' | 'deployed_version' | 'version'>): number | null {
  const live = pipeline.status === 'deployed' ? pipeline.deployed_version : null;
  return live !== null && live !== pipeline.version ? live : null;
}

/** What Deploy / Publish does, said where the button is (unsaved canvas changes are never in it). */
export function publishTitle(pipeline: Pick<Pipeline, 'status' | 'deployed_version' | 'version'>, dirty: boolean): string {
  const live = liveBehind(pipeline);
  const what =
    live !== null
      ? `Publish v${pipeline.version}: production runs (API, webhooks, schedules, listeners) switch from v${live} to it`
      : `Deploy v${pipeline.version}: production runs (API, webhooks, schedules, listeners) use it until you publish another version`;
  return dirty ? `${what}. Your unsaved changes are not in it: save them first (Ctrl+S)` : what;
}

/** Publishes the latest saved version of a deployed pipeline (a redeploy), then reads the pipeline again. */
export function usePublish(pipelineId: string) {
  const utils = api.useUtils();
  const { deploy } = useDeployActions();
  return {
    publish: (then?: () => void) =>
      deploy.mutate(
        { id: pipelineId },
        {
          onSuccess: (p) => {
            utils.pipelines.get.setData({ id: pipelineId }, (old) => (old ? { ...old, ...p } : old));
            void utils.pipelines.get.invalidate({ id: pipelineId });
            then?.();
          },
        },
      ),
    publishing: deploy.isPending,
  };
}

/**
 * "v3 live · v5 saved" beside the pipeline's name while the deployed version is behind the saved one: production
 * runs the live version until the next publish. It opens the changes between the two, with the one action that
 * makes the saved version live.
 */
export function LiveVersion({ pipeline, dirty }: { pipeline: Pipeline; dirty: boolean }) {
  const [open, setOpen] = useState(false);
  const { publish, publishing } = usePublish(pipeline.id);
  const live = liveBehind(pipeline);
  if (live === null) return null;
  return (
    <>
      <button
        type="button"
        data-testid="live-version"
        onClick={() => setOpen(true)}
        title={`Production runs v${live} until you publish v${pipeline.version}: show the changes`}
        className={cn(
          'inline-flex items-center gap-1.5 rounded-md border border-amber-200 bg-amber-50 px-1.5',
          'py-0.5 text-[11px] font-medium whitespace-nowrap text-amber-800 hover:bg-amber-100',
        )}
      >
        <span className="size-1.5 rounded-full bg-emerald-500" aria-hidden />v{live} live · v{pipeline.version} saved
      </button>
      <VersionDiffDialog
        pipelineId={pipeline.id}
        pair={open ? [live, pipeline.version] : null}
        onClose={() => setOpen(false)}
        title={`Changes not live yet: v${live} → v${pipeline.version}`}
        description={`Production runs (API, webhooks, schedules, listeners) use v${live}. Publishing v${pipeline.version} makes it the live version.`}
        footer={
          <Button
            icon={<Rocket className="size-3.5" aria-hidden />}
            loading={publishing}
            title={publishTitle(pipeline, dirty)}
            onClick={() => publish(() => setOpen(false))}
          >
            Publish v{pipeline.version}
          </Button>
        }
      />
    </>
  );
}
