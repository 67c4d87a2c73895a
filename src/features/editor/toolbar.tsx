'use client';

import {
  ArrowLeft,
  Bug,
  History,
  Maximize,
  MessageSquareText,
  Network,
  PanelLeft,
  PanelRight,
  Play,
  Redo2,
  Rocket,
  Save,
  Sparkles,
  Square,
  Undo2,
} from 'lucide-react';
import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { StatusBadge } from '@/features/pipelines/status-badge';
import { useDeployActions } from '@/features/pipelines/use-pipeline-actions';
import { ExportPipelineLink } from '@/features/transfer/export-link';
import { api } from '@/trpc/react';
import { useEditorActions } from './actions-context';
import { ProblemsButton } from './problems-button';
import { RunDialog } from './run-dialog';
import { useEditor } from './store-provider';
import type { SidePanel } from './store';
import type { Pipeline } from './types';
import { useDirty } from './use-editor-effects';
import { useCanvasCommands } from './use-canvas-commands';
import { liveBehind, LiveVersion, publishTitle, usePublish } from './live-version';

function IconButton({
  label,
  onClick,
  disabled,
  children,
  pressed,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
  pressed?: boolean;
}) {
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={disabled}
      aria-pressed={pressed}
      className={cn(pressed && 'bg-slate-100 text-slate-900')}
    >
      {children}
    </Button>
  );
}

const SEP = <span className="mx-1 h-5 w-px bg-slate-200" aria-hidden />;

/** The editor's top bar: where you are, save state, validity, and every action on the pipeline. */
interface ToolbarProps {
  pipeline: Pipeline;
  onTogglePalette: () => void;
  onToggleSide: () => void;
  onShowSide: () => void;
}

export function Toolbar({ pipeline, onTogglePalette, onToggleSide, onShowSide }: ToolbarProps) {
  const { saver, runner, pipelineId } = useEditorActions();
  const { canUndo, canRedo, baseVersion, panel, hasNodes, undo, redo, setPanel, describing, setDescribing } = useEditor((s) => ({
    describing: s.describing || (s.nodes.length === 0 && !s.preview),
    setDescribing: s.setDescribing,
    canUndo: s.past.length > 0,
    canRedo: s.future.length > 0,
    baseVersion: s.baseVersion,
    panel: s.panel,
    hasNodes: s.nodes.length > 0,
    undo: s.undo,
    redo: s.redo,
    setPanel: s.setPanel,
  }));
  const { chatOpen, setChatOpen } = useEditor((s) => ({ chatOpen: s.chatOpen, setChatOpen: s.setChatOpen }));
  const dirty = useDirty();
  const utils = api.useUtils();
  const { deploy, undeploy } = useDeployActions();
  const [running, setRunning] = useState(false);
  const deployed = pipeline.status === 'deployed';
  const behind = liveBehind(pipeline);
  const { publish, publishing } = usePublish(pipelineId);

  const { layout, fit } = useCanvasCommands();

  function toggle(p: SidePanel) {
    setPanel(panel === p ? 'node' : p);
    onShowSide();
  }

  // deploy changes the pipeline's metadata too (deployed version): read it again
  const onDeployed = { onSuccess: () => void utils.pipelines.get.invalidate({ id: pipelineId }) };

  return (
    <header className="flex h-12 shrink-0 items-center gap-2 border-b border-slate-200 bg-white px-3">
      <Link
        href="/pipelines"
        className="inline-flex items-center gap-1 rounded-md px-1.5 py-1 text-sm text-slate-500 hover:bg-slate-100 hover:text-slate-900"
        title="Back to pipelines"
      >
        <ArrowLeft className="size-4" aria-hidden />
        <span className="sr-only">Pipelines</span>
      </Link>
      <div className="flex min-w-0 items-center gap-2">
        <h1 className="min-w-24 truncate text-sm font-semibold text-slate-900" title={pipeline.name}>
          {pipeline.name}
        </h1>
        <span className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[11px] text-slate-600" title="Saved version the canvas is based on">
          v{baseVersion}
        </span>
        {deployed ? <StatusBadge status={pipeline.status} /> : null}
        <LiveVersion pipeline={pipeline} dirty={dirty} />
        {dirty ? (
          <span
            className="inline-flex items-center gap-1.5 text-xs font-medium whitespace-nowrap text-amber-700"
            data-testid="unsaved"
            title="Unsaved changes: Save (Ctrl+S) makes them a new version"
          >
            <span className="size-1.5 rounded-full bg-amber-500" aria-hidden />
            Unsaved
          </span>
        ) : null}
      </div>
      {SEP}
      <ProblemsButton />
      <div className="ml-auto flex items-center gap-0.5">
        <IconButton label="Show or hide the palette" onClick={onTogglePalette}>
          <PanelLeft className="size-4" aria-hidden />
        </IconButton>
        <IconButton label="Show or hide the side panel" onClick={onToggleSide}>
          <PanelRight className="size-4" aria-hidden />
        </IconButton>
        {SEP}
        <IconButton label="Undo (Ctrl+Z)" onClick={undo} disabled={!canUndo}>
          <Undo2 className="size-4" aria-hidden />
        </IconButton>
        <IconButton label="Redo (Ctrl+Shift+Z)" onClick={redo} disabled={!canRedo}>
          <Redo2 className="size-4" aria-hidden />
        </IconButton>
        <IconButton label="Auto-layout" onClick={() => void layout()} disabled={!hasNodes}>
          <Network className="size-4" aria-hidden />
        </IconButton>
        <IconButton label="Fit view" onClick={fit}>
          <Maximize className="size-4" aria-hidden />
        </IconButton>
        {SEP}
        <Button
          variant="ghost"
          size="sm"
          icon={<Sparkles className="size-3.5 text-violet-600" aria-hidden />}
          aria-pressed={describing}
          title="Describe a pipeline and let the copilot design it"
          onClick={() => setDescribing(!describing)}
          className={cn(describing && 'bg-slate-100 text-slate-900')}
        >
          Copilot
        </Button>
        <IconButton label="Copilot chat" onClick={() => setChatOpen(!chatOpen)} pressed={chatOpen}>
          <MessageSquareText className="size-4 text-violet-600" aria-hidden />
        </IconButton>
        <IconButton label="Version history" onClick={() => toggle('versions')} pressed={panel === 'versions'}>
          <History className="size-4" aria-hidden />
        </IconButton>
        <IconButton label="Step debugger" onClick={() => toggle('debug')} pressed={panel === 'debug'}>
          <Bug className="size-4" aria-hidden />
        </IconButton>
        <ExportPipelineLink pipelineId={pipelineId} name={pipeline.name} />
        {SEP}
        {behind !== null ? (
          <Button
            variant="secondary"
            size="sm"
            icon={<Rocket className="size-3.5" aria-hidden />}
            loading={publishing}
            title={publishTitle(pipeline, dirty)}
            onClick={() => publish()}
          >
            Publish v{pipeline.version}
          </Button>
        ) : null}
        {deployed ? (
          <Button
            variant="secondary"
            size="sm"
            icon={<Square className="size-3.5" aria-hidden />}
            loading={undeploy.isPending}
            title="Stop production runs: its triggers and schedules stop"
            onClick={() => undeploy.mutate({ id: pipelineId }, onDeployed)}
          >
            Undeploy
          </Button>
        ) : (
          <Button
            variant="secondary"
            size="sm"
            icon={<Rocket className="size-3.5" aria-hidden />}
            loading={deploy.isPending}
            title={publishTitle(pipeline, dirty)}
            onClick={() => deploy.mutate({ id: pipelineId }, onDeployed)}
          >
            Deploy
          </Button>
        )}
        <Button
          variant="secondary"
          size="sm"
          icon={<Play className="size-3.5" aria-hidden />}
          loading={runner.running}
          onClick={() => setRunning(true)}
          disabled={!hasNodes}
        >
          Test run
        </Button>
        <Button
          size="sm"
          icon={<Save className="size-3.5" aria-hidden />}
          loading={saver.saving}
          disabled={!dirty}
          onClick={() => void saver.save()}
          title={deployed ? `Save as a new version (Ctrl+S); v${pipeline.deployed_version} stays live until you publish` : 'Save as a new version (Ctrl+S)'}
        >
          Save
        </Button>
      </div>
      <RunDialog open={running} onClose={() => setRunning(false)} />
    </header>
  );
}
