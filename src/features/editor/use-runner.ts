'use client';

import { toast } from 'sonner';
import { appError, errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { parseJsonObject } from './json-editor';
import { fromResults } from './run-status';
import { useEditorStoreApi } from './store-provider';
import type { ExecuteResult, StepState } from './types';

function failure(what: string, e: unknown) {
  const app = appError(e);
  if (app?.code === 'PIPELINE_INVALID') {
    toast.error(`${what}: the pipeline is not valid. Fix the problems marked on the canvas, then try again.`);
  } else {
    toast.error(`${what}: ${errorMessage(e)}`);
  }
}

/**
 * Test runs, retries and step sessions of the pipeline. Each runs the saved version, so unsaved
 * changes are saved first (`ensureSaved`).
 */
export function useRunner(pipelineId: string, ensureSaved: () => Promise<boolean>) {
  const store = useEditorStoreApi();
  const utils = api.useUtils();
  const execute = api.executions.execute.useMutation();
  const retry = api.executions.retry.useMutation();
  const stepStart = api.executions.stepStart.useMutation();
  const stepAdvance = api.executions.stepAdvance.useMutation();

  function show(r: ExecuteResult) {
    const s = store.getState();
    s.setStep(null);
    s.setRun(r.status === 'queued' ? Object.fromEntries(s.nodes.map((n) => [n.id, { status: 'pending' as const }])) : fromResults(r.node_results));
    s.setExecution(r.execution_id);
    void utils.executions.get.invalidate({ id: r.execution_id });
    void utils.executions.list.invalidate();
    if (r.status === 'completed') toast.success('Test run completed');
    else if (r.status === 'failed') toast.error(`Test run failed${r.error ? `: ${r.error.message}` : ''}`);
    else toast.info('Test run queued: statuses update as the worker runs it');
  }

  async function run(inputs: Record<string, unknown>, runAsync: boolean): Promise<ExecuteResult | null> {
    if (!(await ensureSaved())) return null;
    const s = store.getState();
    s.setRun(Object.fromEntries(s.nodes.map((n) => [n.id, { status: 'running' as const }])));
    try {
      const r = await execute.mutateAsync({ pipeline_id: pipelineId, inputs, test_mode: true, async: runAsync });
      show(r);
      return r;
    } catch (e) {
      store.getState().setRun({});
      failure('Could not run', e);
      return null;
    }
  }

  /**
   * "Run to here": a test run of `nodeId` and the nodes upstream of it only, with the test inputs of the
   * run dialog; the rest is skipped (not_requested). Synchronous: the drawer shows it as any test run.
   */
  async function runTo(nodeId: string): Promise<ExecuteResult | null> {
    const parsed = parseJsonObject(store.getState().runInputs);
    if ('error' in parsed) {
      toast.error(`Could not run to "${nodeId}": the test inputs are not valid (${parsed.error}); fix them in the Test run dialog.`);
      return null;
    }
    if (!(await ensureSaved())) return null;
    const s = store.getState();
    s.setRun(Object.fromEntries(s.nodes.map((n) => [n.id, { status: 'running' as const }])));
    try {
      const r = await execute.mutateAsync({ pipeline_id: pipelineId, inputs: parsed.value, test_mode: true, async: false, run_to_node: nodeId });
      show(r);
      return r;
    } catch (e) {
      store.getState().setRun({});
      failure(`Could not run to "${nodeId}"`, e);
      return null;
    }
  }

  async function retryFrom(executionId: string, nodeId: string, inputs?: Record<string, unknown>): Promise<ExecuteResult | null> {
    try {
      const r = await retry.mutateAsync({ execution_id: executionId, node_id: nodeId, ...(inputs ? { inputs } : {}) });
      show(r);
      return r;
    } catch (e) {
      failure('Could not retry', e);
      return null;
    }
  }

  function showStep(r: StepState) {
    const s = store.getState();
    s.setStep(r);
    const run = fromResults(r.node_results);
    if (r.status === 'waiting' && r.current_node) run[r.current_node] = { status: 'waiting' };
    s.setRun(run, r.status === 'waiting' ? r.current_node : null);
    s.setExecution(r.execution_id);
    void utils.executions.get.invalidate({ id: r.execution_id });
  }

  async function startStep(inputs: Record<string, unknown>): Promise<StepState | null> {
    if (!(await ensureSaved())) return null;
    try {
      const r = await stepStart.mutateAsync({ pipeline_id: pipelineId, inputs, test_mode: true });
      showStep(r);
      store.getState().setPanel('debug');
      return r;
    } catch (e) {
      failure('Could not start stepping', e);
      return null;
    }
  }

  async function advance(nodeOutputs?: Record<string, unknown>): Promise<StepState | null> {
    const step = store.getState().step;
    if (!step) return null;
    try {
      const r = await stepAdvance.mutateAsync({ sessionId: step.session_id, ...(nodeOutputs ? { node_outputs: nodeOutputs } : {}) });
      showStep(r);
      if (r.status === 'completed') toast.success('Step-through completed');
      else if (r.status === 'failed') toast.error(`Step-through failed${r.error ? `: ${r.error.message}` : ''}`);
      return r;
    } catch (e) {
      failure('Could not advance', e);
      return null;
    }
  }

  function stopStep() {
    const s = store.getState();
    s.setStep(null);
    s.setRun(s.run, null);
  }

  return {
    run,
    runTo,
    retryFrom,
    startStep,
    advance,
    stopStep,
    running: execute.isPending,
    retrying: retry.isPending,
    stepping: stepStart.isPending || stepAdvance.isPending,
  };
}

export type Runner = ReturnType<typeof useRunner>;
