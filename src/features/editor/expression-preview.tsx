'use client';

import { EditorView } from '@uiw/react-codemirror';
import jsonata from 'jsonata';
import { useEffect, useState } from 'react';
import { HL7_JSONATA_BINDINGS } from '@/clinical/hl7v2/access';
import type { NodeInput } from './expression-input';
import { InputTree } from './input-tree';
import { useEditor } from './store-provider';
import type { CatalogEntry, FlowNode } from './types';

/** A preview must not freeze the page: it stops long before the node's own 5 s limit. */
const PREVIEW_LIMITS = { timeout: 500, stack: 500 };
const MAX_SHOWN = 4_000;

type Outcome = { ok: true; text: string } | { ok: false; text: string } | null;

function useEvaluation(expression: string, input: unknown, has: boolean): Outcome {
  const [outcome, setOutcome] = useState<Outcome>(null);
  useEffect(() => {
    if (!has || !expression.trim()) return setOutcome(null);
    let live = true;
    const timer = setTimeout(async () => {
      try {
        const result: unknown = await jsonata(expression, PREVIEW_LIMITS).evaluate(input, HL7_JSONATA_BINDINGS);
        const text = result === undefined ? '(no match: the node outputs nothing)' : JSON.stringify(result, null, 2);
        if (live) setOutcome({ ok: true, text: text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}\n…` : text });
      } catch (e) {
        const err = e as { message?: string; position?: number };
        if (live) setOutcome({ ok: false, text: `${err.message ?? String(e)}${typeof err.position === 'number' ? ` (at position ${err.position})` : ''}` });
      }
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [expression, input, has]);
  return outcome;
}

/**
 * Data-aware configuration of an expression field (a config field whose widget is `expression`): the node's
 * sample input (from the last run shown in the drawer, or the upstream pinned output), its fields as paths
 * that click into the expression editor at the cursor, and the expression's result on that input, live as
 * it is typed.
 */
export function ExpressionPreview({ node, field, sample }: { node: FlowNode; field: string; sample: NodeInput }) {
  const updateNode = useEditor((s) => s.updateNode);
  const { has, input } = sample;
  const expression = typeof node.data.config[field] === 'string' ? (node.data.config[field] as string) : '';
  const outcome = useEvaluation(expression, input, has);

  /** Into the expression editor at its cursor. */
  function insert(path: string) {
    const content = document.getElementById(`cfg-${node.id}_${field}`);
    const view = content ? EditorView.findFromDOM(content) : null;
    if (!view) return updateNode(node.id, { config: { ...node.data.config, [field]: `${expression}${path}` } }, `config:${field}`);
    // where the cursor was last (a field dragged from the tree takes the focus away; the editor keeps its selection)
    const { from, to } = view.state.selection.main;
    view.dispatch({ changes: { from, to, insert: path }, selection: { anchor: from + path.length }, scrollIntoView: true });
    view.focus();
  }

  if (!has) {
    return (
      <p className="text-xs text-slate-500">
        Run the pipeline (Test run) and this node’s input from that run appears here, with its fields to pick from and the expression’s result on it (pinned
        outputs of the node before it serve too).
      </p>
    );
  }
  return (
    <div className="space-y-3" aria-label="Expression preview">
      <div>
        <p className="mb-1 text-xs font-medium text-slate-600">
          Fields of {sample.source === 'pinned' ? 'the pinned input' : 'the last input'} — drag one into the expression (onto a key), click to insert it at the
          cursor, or type and pick from the list
        </p>
        <InputTree input={input} onInsert={insert} />
      </div>
      <div>
        <p className="mb-1 text-xs font-medium text-slate-600">Result on {sample.source === 'pinned' ? 'the pinned input' : 'the last input'}</p>
        <pre
          aria-label="Expression result"
          className={[
            `max-h-56 overflow-auto rounded-md px-2.5 py-2 font-mono text-[11px]`,
            `${outcome && !outcome.ok ? 'bg-red-50 text-red-700' : 'bg-slate-900 text-slate-100'}`,
          ].join(' ')}
        >
          {outcome?.text ?? '…'}
        </pre>
      </div>
    </div>
  );
}

/** The config field of an entry edited with the expression widget, if any. */
export function expressionField(entry: CatalogEntry | undefined): string | undefined {
  const props = (entry?.config_schema as { properties?: Record<string, { 'x-widget'?: string }> } | undefined)?.properties ?? {};
  return Object.entries(props).find(([, p]) => p['x-widget'] === 'expression')?.[0];
}
