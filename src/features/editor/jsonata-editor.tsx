'use client';

import { autocompletion, completionStatus, type Completion, type CompletionSource } from '@codemirror/autocomplete';
import type { WidgetProps } from '@rjsf/utils';
import CodeMirror, { EditorView, Prec } from '@uiw/react-codemirror';
import { useMemo, useRef } from 'react';
import { cn } from '@/components/ui/cn';
import { useExpressionInput } from './expression-input';
import { jsonataCompletions, type JsonataOption } from './jsonata-complete';
import { jsonataHighlight, jsonataLanguage } from './jsonata-language';

const theme = EditorView.theme({
  '&': { fontSize: '12px', backgroundColor: '#fff' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', padding: '6px 0' },
  '.cm-line': { padding: '0 8px' },
  '&.cm-focused': { outline: 'none' },
  '.cm-matchingBracket': { backgroundColor: '#ccfbf1', outline: '1px solid #5eead4' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { backgroundColor: '#0f766e' },
  '.cm-completionDetail': { marginLeft: '0.75em', color: '#64748b', fontStyle: 'normal' },
  '.cm-tooltip.cm-completionInfo': { maxWidth: '280px', fontSize: '12px', padding: '4px 8px', whiteSpace: 'pre-wrap' },
});

/** A function completes with its parentheses and the cursor between them (unless they follow already). */
function applyFunction(view: EditorView, completion: Completion, from: number, to: number) {
  const call = view.state.sliceDoc(to, to + 1) === '(' ? completion.label : `${completion.label}()`;
  view.dispatch({ changes: { from, to, insert: call }, selection: { anchor: from + completion.label.length + 1 } });
}

function toCompletion(o: JsonataOption): Completion {
  return {
    label: o.label,
    type: o.type,
    detail: o.detail,
    info: o.info,
    boost: o.type === 'variable' ? 1 : 0,
    ...(o.type === 'function' ? { apply: applyFunction } : {}),
  };
}

/** Escape closes an open completion list and goes no further (the panel around must not react to it). */
const escapeClosesListOnly = Prec.highest(
  EditorView.domEventHandlers({
    keydown(event, view) {
      if (event.key === 'Escape' && completionStatus(view.state) !== null) event.stopPropagation();
      return false;
    },
  }),
);

export interface JsonataEditorProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  label: string;
  /** The sample input the expression is written against (undefined: none), for field completions. */
  input: unknown;
  placeholder?: string;
  readOnly?: boolean;
  invalid?: boolean;
}

/**
 * A JSONata expression editor (CodeMirror 6): highlighting, bracket matching, and completions of the input's
 * fields, the standard library after `$` and the expression's own variables. Compact, it grows with its
 * content; Tab leaves it (Enter picks a completion). The content element carries `id`, so a label points
 * at it and the field picker finds the view from it (`EditorView.findFromDOM`).
 */
export function JsonataEditor({ id, value, onChange, label, input, placeholder, readOnly, invalid }: JsonataEditorProps) {
  const sample = useRef(input);
  sample.current = input;
  const extensions = useMemo(() => {
    const source: CompletionSource = (ctx) => {
      const result = jsonataCompletions(ctx.state.doc.toString(), ctx.pos, sample.current, ctx.explicit);
      return result && { from: result.from, options: result.options.map(toCompletion), validFor: /^[`$\w]*$/ };
    };
    return [
      jsonataLanguage,
      jsonataHighlight,
      autocompletion({ override: [source], icons: true, maxRenderedOptions: 80, filterStrict: true }),
      escapeClosesListOnly,
      theme,
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ id, 'aria-label': label }),
    ];
  }, [id, label]);
  return (
    <div
      className={cn(
        'overflow-hidden rounded-md border bg-white shadow-sm focus-within:ring-2',
        invalid ? 'border-red-500 focus-within:ring-red-500/20' : 'border-slate-300 focus-within:border-teal-600 focus-within:ring-teal-600/20',
      )}
    >
      <CodeMirror
        value={value}
        onChange={onChange}
        minHeight="4.75em"
        maxHeight="320px"
        readOnly={readOnly}
        editable={!readOnly}
        placeholder={placeholder}
        indentWithTab={false}
        extensions={extensions}
        basicSetup={{
          lineNumbers: false,
          foldGutter: false,
          highlightActiveLine: false,
          highlightActiveLineGutter: false,
          autocompletion: false,
          searchKeymap: false,
          closeBrackets: true,
          bracketMatching: true,
        }}
      />
    </div>
  );
}

/** The config form's widget for JSONata fields (`x-widget: expression`): the editor, fed the node's sample input. */
export function JsonataWidget({ id, value, onChange, label, placeholder, readonly, disabled, rawErrors }: WidgetProps) {
  const sample = useExpressionInput();
  return (
    <JsonataEditor
      id={id}
      value={typeof value === 'string' ? value : ''}
      onChange={(next) => onChange(next === '' ? undefined : next)}
      label={label}
      input={sample.has ? sample.input : undefined}
      placeholder={placeholder}
      readOnly={readonly || disabled}
      invalid={!!rawErrors?.length}
    />
  );
}
