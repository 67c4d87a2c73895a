'use client';

import { Eye, GitCompare, History, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { RelativeTime } from '@/components/ui/relative-time';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { useEditorActions } from './actions-context';
import { clearDrafts } from './draft';
import { useEditor, useEditorStoreApi } from './store-provider';
import { useDirty } from './use-editor-effects';
import { VersionDiffDialog, VersionViewDialog, type VersionRef } from './version-dialogs';

const SELECT = 'rounded-md border border-slate-300 bg-white px-2 py-1 text-xs focus:border-teal-600 focus:outline-none';

/** Version history: view any version, compare two, restore one as a new version. */
export function VersionsPanel() {
  const { pipelineId, saver } = useEditorActions();
  const store = useEditorStoreApi();
  const baseVersion = useEditor((s) => s.baseVersion);
  const dirty = useDirty();
  const utils = api.useUtils();
  const list = api.pipelines.versions.useQuery({ id: pipelineId, limit: 100, offset: 0 });
  // the version production runs (the editor page has the pipeline already)
  const pipeline = api.pipelines.get.useQuery({ id: pipelineId }, { refetchOnWindowFocus: false });
  const live = pipeline.data?.status === 'deployed' ? pipeline.data.deployed_version : null;
  const update = api.pipelines.update.useMutation();
  const [viewing, setViewing] = useState<number | null>(null);
  const [pair, setPair] = useState<[VersionRef, VersionRef] | null>(null);
  const [from, setFrom] = useState<VersionRef | null>(null);
  const [to, setTo] = useState<VersionRef>('canvas');
  const [restoring, setRestoring] = useState<number | null>(null);
  const [restoreError, setRestoreError] = useState<string | null>(null);

  const versions = list.data?.versions ?? [];
  const older = from ?? versions[1]?.version ?? versions[0]?.version ?? null;

  async function restore(n: number) {
    setRestoreError(null);
    try {
      const v = await utils.pipelines.version.fetch({ id: pipelineId, n });
      const p = await update.mutateAsync({ id: pipelineId, definition: v.definition, expected_version: store.getState().baseVersion });
      store.getState().load(p.definition, p.version);
      clearDrafts(pipelineId);
      saver.onSaved(p, p.definition);
      setRestoring(null);
      setViewing(null);
      toast.success(`Version ${n} restored as version ${p.version}`);
    } catch (e) {
      setRestoreError(errorMessage(e));
    }
  }

  if (list.isPending) return <Spinner label="Loading versions…" />;
  if (list.isError) return <p className="p-4 text-sm text-red-700">{errorMessage(list.error)}</p>;
  return (
    <div className="flex h-full flex-col">
      <div className="space-y-2 border-b border-slate-200 p-4">
        <p className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">
          <GitCompare className="size-3.5" aria-hidden /> Compare
        </p>
        <div className="flex items-center gap-1.5">
          <select aria-label="Compare from" className={SELECT} value={older ?? ''} onChange={(e) => setFrom(Number(e.target.value))}>
            {versions.map((v) => (
              <option key={v.version} value={v.version}>
                v{v.version}
              </option>
            ))}
          </select>
          <span className="text-xs text-slate-400">→</span>
          <select
            aria-label="Compare to"
            className={SELECT}
            value={String(to)}
            onChange={(e) => setTo(e.target.value === 'canvas' ? 'canvas' : Number(e.target.value))}
          >
            <option value="canvas">canvas{dirty ? ' (unsaved)' : ''}</option>
            {versions.map((v) => (
              <option key={v.version} value={v.version}>
                v{v.version}
              </option>
            ))}
          </select>
          <Button size="sm" variant="secondary" disabled={older === null} onClick={() => older !== null && setPair([older, to])}>
            Diff
          </Button>
        </div>
      </div>
      <ol className="min-h-0 flex-1 divide-y divide-slate-100 overflow-y-auto" aria-label="Versions">
        {versions.map((v) => (
          <li key={v.version} className="group flex items-center gap-2 px-4 py-2.5" data-testid={`version-${v.version}`}>
            <History className="size-4 shrink-0 text-slate-300" aria-hidden />
            <div className="min-w-0 flex-1">
              <p className="flex items-center gap-1.5 text-sm font-medium text-slate-800">
                Version {v.version}
                {v.version === baseVersion ? <Badge tone="teal">current</Badge> : null}
                {v.version === live ? (
                  <span title="Deployed: production runs (API, webhooks, schedules, listeners) use this version">
                    <Badge tone="green" dot>
                      live
                    </Badge>
                  </span>
                ) : null}
              </p>
              <p className="truncate text-xs text-slate-500">
                <RelativeTime iso={v.created_at} />
              </p>
            </div>
            <Button variant="ghost" size="icon" aria-label={`View version ${v.version}`} title="View" onClick={() => setViewing(v.version)}>
              <Eye className="size-4" aria-hidden />
            </Button>
            {v.version !== baseVersion ? (
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Restore version ${v.version}`}
                title="Restore as a new version"
                onClick={() => setRestoring(v.version)}
              >
                <RotateCcw className="size-4" aria-hidden />
              </Button>
            ) : null}
          </li>
        ))}
      </ol>
      <VersionViewDialog
        pipelineId={pipelineId}
        version={viewing}
        current={baseVersion}
        onClose={() => setViewing(null)}
        onCompare={(n) => {
          setViewing(null);
          setPair([n, baseVersion]);
        }}
        onRestore={(n) => setRestoring(n)}
      />
      <VersionDiffDialog pipelineId={pipelineId} pair={pair} onClose={() => setPair(null)} />
      <ConfirmDialog
        open={restoring !== null}
        onClose={() => {
          setRestoring(null);
          setRestoreError(null);
        }}
        onConfirm={() => restoring !== null && void restore(restoring)}
        pending={update.isPending}
        error={restoreError}
        title={`Restore version ${restoring ?? ''}?`}
        description={`Its definition is saved as a new version (v${baseVersion + 1}); nothing in the history is lost.`}
        confirmLabel="Restore as new version"
      >
        {dirty ? <p className="text-sm text-amber-800">Your unsaved changes on the canvas will be discarded.</p> : null}
      </ConfirmDialog>
    </div>
  );
}
