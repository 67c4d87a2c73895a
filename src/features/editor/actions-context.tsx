'use client';

import { createContext, useContext, type ReactNode } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { isDirty } from './use-editor-effects';
import { useRunner, type Runner } from './use-runner';
import { useSave } from './use-save';
import { useEditorStoreApi } from './store-provider';

interface EditorActions {
  pipelineId: string;
  saver: ReturnType<typeof useSave>;
  runner: Runner;
  /** Saves unsaved changes first (runs use the saved version); false when saving failed. */
  ensureSaved: () => Promise<boolean>;
}

const ActionsContext = createContext<EditorActions | null>(null);

export function useEditorActions(): EditorActions {
  const a = useContext(ActionsContext);
  if (!a) throw new Error('useEditorActions must be used inside <EditorActionsProvider>');
  return a;
}

/** Save, run, step and retry, shared by the toolbar, the panels and the drawer. */
export function EditorActionsProvider({ pipelineId, children }: { pipelineId: string; children: ReactNode }) {
  const store = useEditorStoreApi();
  const saver = useSave(pipelineId);
  async function ensureSaved() {
    if (!isDirty(store.getState())) return true;
    return (await saver.save()) !== null;
  }
  const runner = useRunner(pipelineId, ensureSaved);
  return (
    <ActionsContext.Provider value={{ pipelineId, saver, runner, ensureSaved }}>
      {children}
      <ConfirmDialog
        open={saver.conflict !== null}
        onClose={saver.dismissConflict}
        onConfirm={() => void saver.save({ overwrite: true })}
        pending={saver.saving}
        title="Someone saved this pipeline meanwhile"
        description={saver.conflict?.message}
        confirmLabel="Save mine as the newest version"
      >
        <p className="text-sm text-slate-600">
          Saving yours makes it the newest version; theirs stays in the version history. Or{' '}
          <button type="button" className="font-medium text-teal-700 underline" onClick={() => void saver.loadLatest()}>
            discard your changes and load the latest version
          </button>
          .
        </p>
      </ConfirmDialog>
    </ActionsContext.Provider>
  );
}
