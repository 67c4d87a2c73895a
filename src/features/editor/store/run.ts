import type { NodeRunState, StepState } from '../types';
import type { EditorInit, EditorSlice } from './index';

/** Test runs and the step debugger as the server reports them: node statuses, the execution shown, the session. */
export interface RunSlice {
  run: Record<string, NodeRunState>;
  currentNode: string | null;
  /** The execution shown in the drawer (a run, a retry or the step session's). */
  executionId: string | null;
  step: StepState | null;
  /** JSON text of the test inputs, shared by the run dialog and the step debugger. */
  runInputs: string;
  setRun(run: Record<string, NodeRunState>, currentNode?: string | null): void;
  setExecution(id: string | null): void;
  setStep(step: StepState | null): void;
  setRunInputs(text: string): void;
}

export const runSlice =
  (init: EditorInit): EditorSlice<RunSlice> =>
  (set) => ({
    run: {},
    currentNode: null,
    executionId: null,
    step: null,
    runInputs: init.runInputs,
    setRun(run, currentNode = null) {
      set({ run, currentNode });
    },
    setExecution(executionId) {
      set({ executionId });
    },
    setStep(step) {
      set({ step });
    },
    setRunInputs(runInputs) {
      set({ runInputs });
    },
  });
