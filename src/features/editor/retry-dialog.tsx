'use client';

import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useEditorActions } from './actions-context';
import { JsonEditor, parseJsonObject, pretty } from './json-editor';
import type { ExecutionNode } from './types';

/** "Retry from here": a new execution re-running this node and everything after it; inputs may be edited. */
export function RetryDialog({ executionId, node, onClose }: { executionId: string; node: ExecutionNode | null; onClose: () => void }) {
  const { runner } = useEditorActions();
  const [text, setText] = useState(() => pretty(node?.inputs ?? {}));
  const [edit, setEdit] = useState(false);
  const parsed = parseJsonObject(text);
  const error = edit && 'error' in parsed ? parsed.error : null;

  async function retry() {
    if (!node) return;
    const inputs = edit && 'value' in parsed ? parsed.value : undefined;
    const r = await runner.retryFrom(executionId, node.node_id, inputs);
    if (r) onClose();
  }

  return (
    <Dialog
      open={node !== null}
      onClose={onClose}
      title={`Retry from “${node?.node_id ?? ''}”`}
      description="A new test execution re-runs this node and everything downstream; nodes upstream keep the outputs they had."
      className="max-w-xl"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void retry()} loading={runner.retrying} disabled={!!error}>
            Retry
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={edit} onChange={(e) => setEdit(e.target.checked)} className="size-4 accent-teal-700" />
          Replace this node’s inputs
        </label>
        {edit ? (
          <>
            <JsonEditor label="Node inputs" value={text} onChange={setText} height="220px" />
            {error ? <Alert>{error}</Alert> : null}
          </>
        ) : (
          <p className="text-xs text-slate-500">The node runs again with the inputs it had: {Object.keys(node?.inputs ?? {}).join(', ') || 'none'}.</p>
        )}
      </div>
    </Dialog>
  );
}
