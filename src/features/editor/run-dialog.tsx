'use client';

import { Play } from 'lucide-react';
import { useState } from 'react';
import { getNodeDescriptor } from '@/engine/nodes/descriptors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { MessageTextarea } from '@/features/clinical-views/message-textarea';
import { useEditorActions } from './actions-context';
import { JsonEditor, parseJsonObject } from './json-editor';
import { useEditor } from './store-provider';
import { useDirty } from './use-editor-effects';

/** Test run: JSON inputs for the trigger, sync (wait for the result) or queued (statuses poll in). */
export function RunDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { runner } = useEditorActions();
  const { runInputs, setRunInputs } = useEditor((s) => ({ runInputs: s.runInputs, setRunInputs: s.setRunInputs }));
  const dirty = useDirty();
  const [queued, setQueued] = useState(false);
  const textFields = useEditor((s) => triggerTextFields(s.nodes));
  const parsed = parseJsonObject(runInputs);
  const error = 'error' in parsed ? parsed.error : null;
  const setField = (name: string, text: string) => {
    if ('value' in parsed) setRunInputs(JSON.stringify({ ...parsed.value, [name]: text }, null, 2));
  };
  const jsonEditor = (
    <>
      <JsonEditor label="Test inputs" value={runInputs} onChange={setRunInputs} height={textFields.length ? '140px' : '220px'} />
      {error ? (
        <Alert>{error}</Alert>
      ) : (
        <p className="text-xs text-slate-500">
          The trigger’s <code>event</code> carries this object; each of its fields feeds the port of that name.
        </p>
      )}
    </>
  );

  async function run() {
    if (!('value' in parsed)) return;
    onClose();
    await runner.run(parsed.value, queued);
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Run in test mode"
      description="Nodes that write to outside systems do not call out: they build what they would send and show it as simulated."
      className={textFields.length ? 'max-w-3xl' : 'max-w-xl'}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button icon={<Play className="size-4" aria-hidden />} onClick={() => void run()} disabled={!!error} loading={runner.running}>
            {dirty ? 'Save & run test' : 'Run test'}
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        {textFields.length ? (
          <>
            {textFields.map((name) => {
              const v = 'value' in parsed ? parsed.value[name] : undefined;
              return <MessageTextarea key={name} name={name} value={typeof v === 'string' ? v : ''} onChange={(t) => setField(name, t)} disabled={!!error} />;
            })}
            <details className="group space-y-1.5" open={!!error}>
              <summary className="cursor-pointer text-sm font-medium text-slate-700 select-none">All inputs as JSON</summary>
              <div className="mt-1.5 space-y-1.5">{jsonEditor}</div>
            </details>
          </>
        ) : (
          <div className="space-y-1.5">
            <p className="text-sm font-medium text-slate-700">Inputs</p>
            {jsonEditor}
          </div>
        )}
        <label className="flex items-start gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={queued} onChange={(e) => setQueued(e.target.checked)} className="mt-0.5 size-4 accent-teal-700" />
          <span>
            Run in the background queue
            <span className="block text-xs text-slate-500">Returns at once; the canvas follows the worker’s progress.</span>
          </span>
        </label>
        {dirty ? <Alert tone="info">Runs use the saved pipeline: your unsaved changes are saved as a new version first.</Alert> : null}
      </div>
    </Dialog>
  );
}

/**
 * The `text` outputs of the pipeline's trigger, as its descriptor gives them for its config: pasted messages, each the
 * execution input of its name (a manual trigger's `{fields: {message: 'text'}}` → `['message']`, an MLLP listener's `message`).
 */
export function triggerTextFields(nodes: { data: { nodeType: string; config: Record<string, unknown> } }[]): string[] {
  for (const node of nodes) {
    const descriptor = getNodeDescriptor(node.data.nodeType);
    if (!descriptor?.trigger) continue;
    const config = descriptor.config.safeParse(node.data.config);
    if (!config.success) return [];
    return descriptor
      .ports(config.data)
      .outputs.filter((p) => p.type === 'text')
      .map((p) => p.name);
  }
  return [];
}

/** Starting inputs for a test run: what the pipeline's trigger suggests (one key per manual-trigger field…). */
export function inputsTemplate(nodes: { data: { nodeType: string; config: Record<string, unknown> } }[]): string {
  for (const node of nodes) {
    const descriptor = getNodeDescriptor(node.data.nodeType);
    if (!descriptor?.trigger) continue;
    const config = descriptor.config.safeParse(node.data.config);
    if (config.success) return JSON.stringify(descriptor.trigger.sampleInputs(config.data), null, 2);
  }
  return '{}';
}
