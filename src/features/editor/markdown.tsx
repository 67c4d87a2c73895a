import { Fragment, type ReactNode } from 'react';

/** Inline markdown: `code`, **bold**, *italic*, [text](url) as plain text. */
function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*|\[[^\]]+\]\([^)]+\))/g;
  let last = 0;
  let m: RegExpExecArray | null;
  let i = 0;
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const t = m[0];
    if (t.startsWith('`')) out.push(<code key={i++} className="rounded bg-slate-100 px-1 py-px font-mono text-[0.85em] text-slate-800">{t.slice(1, -1)}</code>);
    else if (t.startsWith('**')) out.push(<strong key={i++} className="font-semibold text-slate-800">{t.slice(2, -2)}</strong>);
    else if (t.startsWith('[')) out.push(<span key={i++} className="text-teal-700">{t.slice(1, t.indexOf(']'))}</span>);
    else out.push(<em key={i++}>{t.slice(1, -1)}</em>);
    last = m.index + t.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

type Block = { kind: 'p' | 'h' | 'ul' | 'ol' | 'code'; lines: string[]; level?: number };

function blocks(md: string): Block[] {
  const out: Block[] = [];
  const lines = md.replace(/\r\n/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('```')) {
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) code.push(lines[i]!);
      out.push({ kind: 'code', lines: code });
      continue;
    }
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      out.push({ kind: 'h', lines: [h[2]!], level: h[1]!.length });
      continue;
    }
    if (!line.trim()) continue;
    const ul = /^\s*[-*]\s+(.*)$/.exec(line);
    const ol = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    const prev = out.at(-1);
    if (ul || ol) {
      const kind = ul ? 'ul' : 'ol';
      const text = (ul ?? ol)![1]!;
      if (prev?.kind === kind && i > 0 && lines[i - 1]!.trim()) prev.lines.push(text);
      else out.push({ kind, lines: [text] });
      continue;
    }
    // continuation of a list item or paragraph
    if (prev && i > 0 && lines[i - 1]!.trim() && prev.kind !== 'h' && prev.kind !== 'code') {
      prev.lines[prev.lines.length - 1] += ` ${line.trim()}`;
      continue;
    }
    out.push({ kind: 'p', lines: [line.trim()] });
  }
  return out;
}

/** Node documentation: a small, safe subset of markdown (no HTML, no links followed). */
export function Markdown({ source }: { source: string }) {
  return (
    <div className="space-y-2 text-[13px] leading-relaxed text-slate-600">
      {blocks(source).map((b, i) => {
        if (b.kind === 'code') {
          return (
            <pre key={i} className="overflow-x-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-xs text-slate-100">
              {b.lines.join('\n')}
            </pre>
          );
        }
        if (b.kind === 'h') return <p key={i} className="pt-1 text-sm font-semibold text-slate-800">{inline(b.lines[0]!)}</p>;
        if (b.kind === 'ul' || b.kind === 'ol') {
          const List = b.kind;
          return (
            <List key={i} className={`space-y-1 pl-5 ${b.kind === 'ul' ? 'list-disc' : 'list-decimal'}`}>
              {b.lines.map((l, j) => (
                <li key={j}>{inline(l)}</li>
              ))}
            </List>
          );
        }
        return <p key={i}>{b.lines.map((l, j) => <Fragment key={j}>{inline(l)}</Fragment>)}</p>;
      })}
    </div>
  );
}
