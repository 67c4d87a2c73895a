'use client';

import { api } from '@/trpc/react';
import { autoLayout } from './auto-layout';
import { currentDefinition } from './store';
import { useEditorStoreApi } from './store-provider';
import { canvasKey } from './use-editor-effects';

/**
 * The copilot's calls from the editor: design a pipeline from a description (shown as a preview on the
 * canvas, laid out left to right) and check the canvas (the copilot's review beside the validator's).
 * Errors (the 30-a-minute limit among them) come back as the calls' readable messages.
 */
export function useCopilot() {
  const store = useEditorStoreApi();
  const generate = api.copilot.generate.useMutation();
  const validate = api.copilot.validatePipeline.useMutation();

  async function design(description: string): Promise<boolean> {
    const model = store.getState().copilotModel;
    const result = await generate.mutateAsync({ description, ...(model ? { model } : {}) }).catch(() => null);
    if (!result) return false;
    await store.getState().propose(result, autoLayout);
    return true;
  }

  async function check(): Promise<boolean> {
    const s = store.getState();
    const key = canvasKey(s);
    const report = await validate.mutateAsync({ definition: currentDefinition(s) }).catch(() => null);
    if (!report) return false;
    store.getState().setReview({ report, key });
    return true;
  }

  return {
    design,
    designing: generate.isPending,
    designError: generate.error?.message ?? null,
    check,
    checking: validate.isPending,
    checkError: validate.error?.message ?? null,
  };
}
