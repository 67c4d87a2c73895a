'use client';

import { useEffect } from 'react';
import { api } from '@/trpc/react';
import { canonical } from './definition';
import { removeDraft, writeDraft } from './draft';
import { currentDefinition, type EditorState } from './store';
import { useEditor, useEditorStoreApi } from './store-provider';

const RUN_INPUTS = 'clinflow:run-inputs:';

/** The test inputs last used for this pipeline (kept across reloads). */
export function readRunInputs(pipelineId: string): string | null {
  try {
    return localStorage.getItem(RUN_INPUTS + pipelineId);
  } catch {
    return null;
  }
}

/** Has the canvas changed since the last save (or load)? */
export function useDirty(): boolean {
  return useEditor((s) => isDirty(s));
}

let memo: { nodes: EditorState['nodes']; edges: EditorState['edges']; notes: EditorState['notes']; key: string } | null = null;

/** Canonical JSON of the canvas, computed once per graph change however many components ask. */
export function canvasKey(s: Pick<EditorState, 'nodes' | 'edges' | 'notes'>): string {
  if (memo?.nodes !== s.nodes || memo.edges !== s.edges || memo.notes !== s.notes)
    memo = { nodes: s.nodes, edges: s.edges, notes: s.notes, key: canonical(currentDefinition(s)) };
  return memo.key;
}

export function isDirty(s: EditorState): boolean {
  return canvasKey(s) !== s.savedKey;
}

/**
 * Background work of the editor: re-validates the definition with the server after each change
 * (debounced) and keeps the localStorage draft in step with the canvas.
 */
export function useEditorEffects() {
  const store = useEditorStoreApi();
  const utils = api.useUtils();

  useEffect(() => {
    let lastKey = '';
    let lastDraftKey = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    let seq = 0;
    const run = () => {
      const s = store.getState();
      const def = currentDefinition(s);
      const key = canonical(def);
      const draftKey = `${key}@${s.baseVersion}:${s.savedKey.length}`;
      if (draftKey !== lastDraftKey) {
        lastDraftKey = draftKey;
        if (key === s.savedKey) removeDraft(s.pipelineId, s.baseVersion);
        else writeDraft(s.pipelineId, s.baseVersion, def);
      }
      if (key === lastKey) return;
      lastKey = key;
      const mine = ++seq;
      // a mutation, so the definition travels in a POST body (a big pipeline would not fit in a URL)
      utils.client.pipelines.validate
        .mutate({ definition: def })
        .then((report) => {
          if (mine === seq) store.getState().setFindings(report.errors, report.warnings);
        })
        .catch(() => undefined);
    };
    {
      // the first pass only validates: a draft on offer must not be overwritten before the user chooses
      const s = store.getState();
      lastDraftKey = `${canonical(currentDefinition(s))}@${s.baseVersion}:${s.savedKey.length}`;
    }
    run();
    const unsubscribe = store.subscribe((s, prev) => {
      if (s.runInputs !== prev.runInputs) {
        try {
          localStorage.setItem(RUN_INPUTS + s.pipelineId, s.runInputs);
        } catch {
          // not kept: fine
        }
      }
      if (s.nodes === prev.nodes && s.edges === prev.edges && s.notes === prev.notes && s.savedKey === prev.savedKey) return;
      clearTimeout(timer);
      timer = setTimeout(run, 350);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [store, utils]);
}
