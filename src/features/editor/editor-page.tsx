'use client';

import { ReactFlowProvider } from '@xyflow/react';
import { ArrowLeft } from 'lucide-react';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { EditorActionsProvider } from './actions-context';
import { canonical, toFlow } from './definition';
import { listDrafts } from './draft';
import type { DraftOffer } from './draft-banner';
import { EditorLayout } from './editor-layout';
import { inputsTemplate } from './run-dialog';
import { EditorStoreProvider, useEditor } from './store-provider';
import type { CatalogEntry, Pipeline } from './types';
import { readRunInputs } from './use-editor-effects';

/** /pipelines/[id]: loads the pipeline and the catalog, then opens the editor on them. */
export function EditorPage({ id, debugRun }: { id: string; debugRun?: string }) {
  const pipeline = api.pipelines.get.useQuery({ id }, { refetchOnWindowFocus: false });
  const catalog = api.catalog.list.useQuery({}, { staleTime: Infinity });
  // a past run to debug with: its inputs become the test inputs, its results show in the drawer
  const run = api.executions.get.useQuery({ id: debugRun ?? '' }, { enabled: !!debugRun, retry: false, refetchOnWindowFocus: false });

  const failed = pipeline.error ?? catalog.error ?? run.error;
  if (failed) {
    return (
      <div className="mx-auto max-w-lg space-y-3">
        <Alert title={pipeline.error ? 'Could not open this pipeline' : catalog.error ? 'Could not load the node catalog' : 'Could not load the run to debug'}>
          {errorMessage(failed)}
        </Alert>
        <div className="flex gap-2">
          <Link href="/pipelines" className="inline-flex items-center gap-1.5 text-sm font-medium text-teal-700 hover:underline">
            <ArrowLeft className="size-4" aria-hidden /> All pipelines
          </Link>
          <Button variant="secondary" size="sm" onClick={() => void (pipeline.error ? pipeline.refetch() : catalog.error ? catalog.refetch() : run.refetch())}>
            Try again
          </Button>
        </div>
      </div>
    );
  }
  if (!pipeline.data || !catalog.data || (debugRun && !run.data)) return <Spinner label="Opening the editor…" />;
  const debug = run.data && run.data.pipeline_id === id ? { id: run.data.id, inputs: run.data.inputs } : undefined;
  return <LoadedEditor key={id} pipeline={pipeline.data} catalog={catalog.data.nodes} debug={debug} />;
}

/** Shows the run being debugged in the drawer once the editor is up (its node statuses on the canvas too). */
function ShowRun({ id }: { id: string }) {
  const setExecution = useEditor((s) => s.setExecution);
  useEffect(() => setExecution(id), [id, setExecution]);
  return null;
}

function LoadedEditor({ pipeline, catalog, debug }: { pipeline: Pipeline; catalog: CatalogEntry[]; debug?: { id: string; inputs: unknown } }) {
  useEffect(() => {
    document.title = `${pipeline.name} · Clinflow`;
  }, [pipeline.name]);
  // decided once, when the editor opens; later refetches of the pipeline never reset the canvas
  const [start] = useState(() => {
    const drafts = listDrafts(pipeline.id);
    const exact = drafts.find((d) => d.version === pipeline.version);
    const older = drafts.find((d) => d.version < pipeline.version);
    let offer: DraftOffer | null = null;
    let definition = pipeline.definition;
    if (exact && canonical(exact.definition) !== canonical(pipeline.definition)) {
      definition = exact.definition;
      offer = { kind: 'restored', draft: exact, saved: pipeline.definition };
    } else if (older) {
      offer = { kind: 'stale', draft: older, saved: pipeline.definition, version: pipeline.version };
    }
    const runInputs = debug ? JSON.stringify(debug.inputs ?? {}, null, 2) : (readRunInputs(pipeline.id) ?? inputsTemplate(toFlow(definition).nodes));
    return { offer, init: { pipelineId: pipeline.id, catalog, definition, saved: pipeline.definition, baseVersion: pipeline.version, runInputs } };
  });
  return (
    <EditorStoreProvider init={start.init}>
      <ReactFlowProvider>
        <EditorActionsProvider pipelineId={pipeline.id}>
          {debug ? <ShowRun id={debug.id} /> : null}
          <EditorLayout pipeline={pipeline} offer={start.offer} />
        </EditorActionsProvider>
      </ReactFlowProvider>
    </EditorStoreProvider>
  );
}
