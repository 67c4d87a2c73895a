'use client';

import type { CopilotEvent } from '@/shared/copilot-events';
import { copilotFixFor } from '@/shared/copilot-fixes';
import { autoLayout } from './auto-layout';
import { streamCopilotChat } from './copilot-stream';
import { canonical, type Definition } from './definition';
import { currentDefinition } from './store';
import type { ChatStep } from './store/chat';
import type { CopilotProposal } from './store/copilot';
import { useEditorStoreApi } from './store-provider';

type PipelineData = Extract<CopilotEvent, { event: 'pipeline' }>['data'];

function dryRunStep(data: unknown): ChatStep {
  const d = (data ?? {}) as { status?: unknown; error?: { node_id?: string | null; message?: string } | null };
  const error = d.error?.message ? `${d.error.node_id ? `${d.error.node_id}: ` : ''}${d.error.message}` : null;
  return { kind: 'dry_run', status: typeof d.status === 'string' ? d.status : 'unknown', error };
}

/**
 * The copilot panel's requests: one turn streamed from POST /api/copilot/chat about the canvas as it is (unsaved
 * edits included; on an empty canvas, a new design), each step added to the conversation as it arrives. A
 * pipeline in the answer is previewed on the canvas: as a change to it (added nodes and edges drawn proposed),
 * or, on an empty canvas, as the new design.
 */
export function useCopilotChat() {
  const store = useEditorStoreApi();

  async function ask(request: string, message = request): Promise<void> {
    const s = store.getState();
    if (s.chat.some((t) => t.pending)) return;
    s.setChatOpen(true);
    const id = s.startTurn(request);
    const update = s.updateTurn;
    const addStep = (step: ChatStep) => update(id, (t) => ({ steps: [...t.steps, step] }));
    const canvas = s.nodes.length ? currentDefinition(s) : null;
    let pipeline: PipelineData | null = null;
    let validation: CopilotProposal['validation'] | null = null;
    let dryRun: unknown = null;
    const thoughts: string[] = [];
    try {
      await streamCopilotChat(
        message,
        canvas,
        (e) => {
          if (e.event === 'thinking') {
            thoughts.push(e.data.content);
            addStep({ kind: 'thinking', content: e.data.content });
          } else if (e.event === 'validation') {
            validation = e.data;
            addStep({ kind: 'validation', report: e.data });
          } else if (e.event === 'dry_run') {
            dryRun = e.data;
            addStep(dryRunStep(e.data));
          } else if (e.event === 'pipeline') pipeline = e.data;
          else if (e.event === 'message') update(id, (t) => ({ message: t.message ? `${t.message}\n${e.data.content}` : e.data.content }));
          else if (e.event === 'error') update(id, () => ({ error: e.data.error.message }));
        },
        { model: s.copilotModel },
      );
    } catch (e) {
      update(id, () => ({ error: (e as Error).message, pending: false }));
      return;
    }
    const got = pipeline as PipelineData | null;
    const checked = validation as CopilotProposal['validation'] | null;
    let outcome: 'previewed' | 'unchanged' | null = null;
    if (got && checked) {
      const name = got.name ?? 'Proposed change';
      if (canvas) {
        const definition = { nodes: got.nodes, connections: got.connections };
        const about = { name, validation: checked, reasoning: thoughts.slice(1), unresolved: [] };
        outcome = store.getState().proposeChange(definition, about, canvas) ? 'previewed' : 'unchanged';
        if (outcome === 'previewed') update(id, () => ({ proposal: { definition, about, canvas: changeKey(canvas), base: canvas } }));
      } else {
        const result: CopilotProposal = {
          pipeline: { name, nodes: got.nodes, connections: got.connections },
          validation: checked,
          reasoning: thoughts.slice(1),
          unresolved: [],
          dry_run: dryRun as CopilotProposal['dry_run'],
          planner: 'offline',
        };
        await store.getState().propose(result, autoLayout);
        outcome = 'previewed';
      }
    }
    update(id, () => ({ pending: false, outcome }));
  }

  return { ask };
}

/** What a change is made to: the canvas's nodes (positions aside) and connections. */
export function changeKey(d: Definition): string {
  return canonical({
    nodes: d.nodes.map(({ position: _p, ...n }) => n),
    connections: d.connections.map(({ source, source_port, target, target_port }) => ({ source, source_port, target, target_port })),
  });
}

/**
 * The "Fix" of a finding: the copilot's change that answers it (the one its suggestions would make), asked for in the
 * panel and previewed; undefined where no such change exists.
 */
export function useCopilotFix(): (f: { node_id: string | null; code: string }) => (() => void) | undefined {
  const { ask } = useCopilotChat();
  return (f) => {
    const fix = copilotFixFor(f);
    return fix ? () => void ask(`Fix: ${fix.title}`, fix.change) : undefined;
  };
}
