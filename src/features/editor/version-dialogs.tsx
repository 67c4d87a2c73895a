'use client';

import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { currentDefinition } from './store';
import { useEditorStoreApi } from './store-provider';
import { JsonView } from '@/components/json-view';
import { VersionDiffView } from './version-diff-view';
import type { Definition } from './definition';

/** "canvas" stands for the definition on the canvas now, saved or not. */
export type VersionRef = number | 'canvas';

function useDefinition(pipelineId: string, ref: VersionRef | null): { def?: Definition; error?: string } {
  const store = useEditorStoreApi();
  const q = api.pipelines.version.useQuery({ id: pipelineId, n: typeof ref === 'number' ? ref : 1 }, { enabled: typeof ref === 'number', staleTime: Infinity });
  if (ref === 'canvas') return { def: currentDefinition(store.getState()) };
  if (q.isError) return { error: errorMessage(q.error) };
  return { def: q.data?.definition };
}

const label = (r: VersionRef) => (r === 'canvas' ? 'canvas' : `v${r}`);

export function VersionDiffDialog({
  pipelineId,
  pair,
  onClose,
  title,
  description,
  footer,
}: {
  pipelineId: string;
  pair: [VersionRef, VersionRef] | null;
  onClose: () => void;
  title?: string;
  description?: string;
  footer?: ReactNode;
}) {
  const a = useDefinition(pipelineId, pair?.[0] ?? null);
  const b = useDefinition(pipelineId, pair?.[1] ?? null);
  return (
    <Dialog
      open={pair !== null}
      onClose={onClose}
      title={title ?? (pair ? `Changes from ${label(pair[0])} to ${label(pair[1])}` : 'Changes')}
      description={description}
      footer={footer}
      className="max-w-2xl"
    >
      {a.error || b.error ? (
        <p className="text-sm text-red-700">{a.error ?? b.error}</p>
      ) : a.def && b.def ? (
        <VersionDiffView before={a.def} after={b.def} />
      ) : (
        <Spinner label="Loading versions…" />
      )}
    </Dialog>
  );
}

export function VersionViewDialog({
  pipelineId,
  version,
  onClose,
  onCompare,
  onRestore,
  current,
}: {
  pipelineId: string;
  version: number | null;
  onClose: () => void;
  onCompare: (n: number) => void;
  onRestore: (n: number) => void;
  current: number;
}) {
  const q = api.pipelines.version.useQuery({ id: pipelineId, n: version ?? 1 }, { enabled: version !== null, staleTime: Infinity });
  const [raw, setRaw] = useState(false);
  const v = q.data;
  return (
    <Dialog
      open={version !== null}
      onClose={onClose}
      title={`Version ${version ?? ''}`}
      description={v ? `Saved ${new Date(v.created_at).toLocaleString()}${v.created_by?.startsWith('api-key:') ? ' through an API key' : ''}` : undefined}
      className="max-w-2xl"
      footer={
        version !== null && version !== current ? (
          <>
            <Button variant="secondary" onClick={() => onCompare(version)}>
              Compare with current
            </Button>
            <Button onClick={() => onRestore(version)}>Restore this version</Button>
          </>
        ) : undefined
      }
    >
      {q.isError ? (
        <p className="text-sm text-red-700">{errorMessage(q.error)}</p>
      ) : !v ? (
        <Spinner label="Loading version…" />
      ) : (
        <div className="space-y-3">
          <div className="flex items-center justify-between">
            <p className="text-sm text-slate-600">
              {v.definition.nodes.length} nodes, {v.definition.connections.length} connections
            </p>
            <button type="button" className="text-xs font-medium text-teal-700 hover:underline" onClick={() => setRaw(!raw)}>
              {raw ? 'Show summary' : 'Show JSON'}
            </button>
          </div>
          {raw ? (
            <JsonView value={v.definition} label="Version definition" className="max-h-[50vh]" />
          ) : (
            <table className="w-full text-left text-xs">
              <thead className="text-slate-500">
                <tr>
                  <th className="py-1 font-medium">Node</th>
                  <th className="py-1 font-medium">Type</th>
                  <th className="py-1 font-medium">Feeds</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {v.definition.nodes.map((n) => (
                  <tr key={n.id}>
                    <td className="py-1.5 font-mono text-slate-800">{n.name ? `${n.name} (${n.id})` : n.id}</td>
                    <td className="py-1.5 text-slate-600">{n.type}</td>
                    <td className="py-1.5 font-mono text-slate-500">
                      {v.definition.connections
                        .filter((c) => c.source === n.id)
                        .map((c) => `${c.target}.${c.target_port}`)
                        .join(', ') || '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </Dialog>
  );
}
