'use client';

import { ArrowRightToLine, Power, PowerOff } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useEditorActions } from './actions-context';
import { useEditor } from './store-provider';
import type { FlowNode } from './types';

/** The node panel's actions on the node itself: disable or enable it (D), and test-run up to it (Shift+R). */
export function NodeActions({ node }: { node: FlowNode }) {
  const { runner } = useEditorActions();
  const { updateNode, trigger } = useEditor((s) => ({ updateNode: s.updateNode, trigger: !!s.catalog[node.data.nodeType]?.trigger }));
  const disabled = !!node.data.disabled;
  return (
    <div className="space-y-2 border-b border-slate-100 px-4 py-2.5">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          variant="secondary"
          icon={disabled ? <Power className="size-3.5" aria-hidden /> : <PowerOff className="size-3.5" aria-hidden />}
          title={disabled ? 'Enable: runs run this node again (D)' : 'Disable: runs pass its input through instead of running it (D)'}
          onClick={() => updateNode(node.id, { disabled: !disabled || undefined })}
        >
          {disabled ? 'Enable' : 'Disable'}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          icon={<ArrowRightToLine className="size-3.5" aria-hidden />}
          loading={runner.running}
          title="Test run of this node and the nodes upstream of it only, with the test inputs (Shift+R)"
          onClick={() => void runner.runTo(node.id)}
        >
          Run to here
        </Button>
      </div>
      {disabled ? (
        <p className="rounded-md bg-slate-100 px-2.5 py-1.5 text-xs text-slate-600" role="note">
          {trigger
            ? 'Disabled: a disabled trigger cannot start the pipeline, so it cannot run until you enable it.'
            : 'Disabled: runs (test and real) do not run this node; its input passes through to the outputs that take it.'}
        </p>
      ) : null}
    </div>
  );
}
