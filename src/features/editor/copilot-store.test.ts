import { describe, expect, it } from 'vitest';
import { createEditorStore, currentDefinition } from './store';
import type { CopilotProposal } from './store/copilot';
import { CATALOG } from './test-catalog';
import type { FlowNode } from './types';

const proposal = {
  pipeline: {
    name: 'Rows out',
    nodes: [
      { id: 'start', type: 'manual-trigger', config: { fields: { text: 'text' } }, position: { x: 0, y: 0 } },
      { id: 'out', type: 'pipeline-output', config: {}, position: { x: 260, y: 0 } },
    ],
    connections: [{ source: 'start', source_port: 'text', target: 'out', target_port: 'value' }],
  },
  validation: { valid: true, errors: [], warnings: [] },
  dry_run: null,
  reasoning: ['Read the request.'],
  unresolved: [],
  planner: 'offline',
} as CopilotProposal;

function makeStore(def = { nodes: [], connections: [] } as never) {
  return createEditorStore({ pipelineId: 'p1', catalog: CATALOG, definition: def, saved: def, baseVersion: 1, runInputs: '{}' });
}

/** Keeps the planner's positions (the canvas lays a proposal out with ELK; here as given). */
const asGiven = async (nodes: FlowNode[]) => nodes;

describe('the copilot\u2019s proposal in the editor', () => {
  it('is previewed apart from the document; Discard leaves the document as it was', async () => {
    const s = makeStore();
    await s.getState().propose(proposal, asGiven);
    expect(s.getState().preview?.nodes.map((n) => n.id)).toEqual(['proposed:start', 'proposed:out']);
    expect(s.getState().nodes).toEqual([]);
    s.getState().discardPreview();
    expect(s.getState().preview).toBeNull();
    expect(currentDefinition(s.getState())).toEqual({ nodes: [], connections: [] });
    expect(s.getState().past).toEqual([]);
  });

  it('is accepted as one undo step, with ids of its own where the canvas already uses the planner\u2019s', async () => {
    const s = makeStore({ nodes: [{ id: 'out', type: 'pipeline-output', config: {}, position: { x: 0, y: 0 } }], connections: [] } as never);
    await s.getState().propose(proposal, asGiven);
    // placed below what is on the canvas
    expect(Math.min(...s.getState().preview!.nodes.map((n) => n.position.y))).toBeGreaterThan(110);
    expect(s.getState().acceptPreview()).toEqual(['start', 'pipeline-output-1']);
    const def = currentDefinition(s.getState());
    expect(def.nodes.map((n) => n.id)).toEqual(['out', 'start', 'pipeline-output-1']);
    expect(def.connections).toEqual([
      { id: 'start.text->pipeline-output-1.value', source: 'start', source_port: 'text', target: 'pipeline-output-1', target_port: 'value' },
    ]);
    expect(def.nodes.some((n) => 'proposed' in n)).toBe(false);
    expect(s.getState().preview).toBeNull();
    s.getState().undo();
    expect(currentDefinition(s.getState()).nodes.map((n) => n.id)).toEqual(['out']);
    expect(currentDefinition(s.getState()).connections).toEqual([]);
  });
});
