'use client';

import { useState } from 'react';
import { toast } from 'sonner';
import { appError, errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { clearDrafts } from './draft';
import { currentDefinition } from './store';
import { useEditorStoreApi } from './store-provider';
import type { Pipeline } from './types';

export interface Conflict {
  message: string;
}

/**
 * Saving = a new version (pipelines.update with expected_version). A 409 VERSION_CONFLICT means someone
 * saved in between: the caller shows `conflict` and offers to overwrite or to load theirs.
 */
export function useSave(pipelineId: string) {
  const store = useEditorStoreApi();
  const utils = api.useUtils();
  const update = api.pipelines.update.useMutation();
  const [conflict, setConflict] = useState<Conflict | null>(null);

  function saved(p: Pipeline, sent: ReturnType<typeof currentDefinition>) {
    store.getState().markSaved(sent, p.version);
    clearDrafts(pipelineId);
    // the saved fields at once; the metadata (authors, counts) with the next read
    utils.pipelines.get.setData({ id: pipelineId }, (old) => (old ? { ...old, ...p } : old));
    void utils.pipelines.get.invalidate({ id: pipelineId }, { refetchType: 'none' });
    void utils.pipelines.versions.invalidate({ id: pipelineId });
    void utils.pipelines.list.invalidate();
  }

  /** Saves the canvas; `overwrite` saves on top of whatever the latest version is. Null when it failed. */
  async function save(opts: { overwrite?: boolean; quiet?: boolean } = {}): Promise<Pipeline | null> {
    const s = store.getState();
    const definition = currentDefinition(s);
    let expected = s.baseVersion;
    try {
      if (opts.overwrite) expected = (await utils.pipelines.get.fetch({ id: pipelineId }, { staleTime: 0 })).version;
      const p = await update.mutateAsync({ id: pipelineId, definition, expected_version: expected });
      saved(p, definition);
      setConflict(null);
      if (!opts.quiet) toast.success(`Saved as version ${p.version}`);
      return p;
    } catch (e) {
      if (appError(e)?.code === 'VERSION_CONFLICT') setConflict({ message: errorMessage(e) });
      else toast.error(`Could not save: ${errorMessage(e)}`);
      return null;
    }
  }

  /** Drops the canvas and loads the latest saved version (after a conflict, or "discard changes"). */
  async function loadLatest() {
    try {
      const p = await utils.pipelines.get.fetch({ id: pipelineId }, { staleTime: 0 });
      store.getState().load(p.definition, p.version);
      clearDrafts(pipelineId);
      setConflict(null);
      toast.info(`Loaded version ${p.version}`);
    } catch (e) {
      toast.error(errorMessage(e));
    }
  }

  return { save, saving: update.isPending, conflict, dismissConflict: () => setConflict(null), loadLatest, onSaved: saved };
}
