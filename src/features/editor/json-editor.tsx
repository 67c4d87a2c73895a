'use client';

import { json } from '@codemirror/lang-json';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { useMemo } from 'react';
import { cn } from '@/components/ui/cn';
import { pretty } from '@/components/json-view';

const theme = EditorView.theme({
  '&': { fontSize: '12px', backgroundColor: '#fff' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
  '.cm-gutters': { backgroundColor: '#f8fafc', borderRight: '1px solid #e2e8f0', color: '#94a3b8' },
  '&.cm-focused': { outline: 'none' },
});

/** Parses JSON text to an object, or says what is wrong with it. */
export function parseJsonObject(text: string): { value: Record<string, unknown> } | { error: string } {
  try {
    const v: unknown = JSON.parse(text || '{}');
    if (!v || typeof v !== 'object' || Array.isArray(v)) return { error: 'Expected a JSON object: { … }' };
    return { value: v as Record<string, unknown> };
  } catch (e) {
    return { error: `Not valid JSON: ${(e as Error).message}` };
  }
}

export { pretty };

/** A JSON editor (CodeMirror 6) with syntax highlighting; callers show parse errors beside it. */
export function JsonEditor({
  value,
  onChange,
  label,
  height = '160px',
  readOnly,
  className,
}: {
  value: string;
  onChange?: (v: string) => void;
  label: string;
  height?: string;
  readOnly?: boolean;
  className?: string;
}) {
  const extensions = useMemo(() => [json(), theme, EditorView.lineWrapping], []);
  return (
    <div
      role="group"
      aria-label={label}
      className={cn(
        'overflow-hidden rounded-md border border-slate-300 shadow-sm focus-within:border-teal-600 focus-within:ring-2 focus-within:ring-teal-600/20',
        className,
      )}
    >
      <CodeMirror
        value={value}
        onChange={onChange}
        height={height}
        readOnly={readOnly}
        editable={!readOnly}
        extensions={extensions}
        aria-label={label}
        basicSetup={{ foldGutter: true, highlightActiveLine: !readOnly, autocompletion: false, searchKeymap: false }}
      />
    </div>
  );
}
