import ReactMarkdown, { type Components } from 'react-markdown';
import { cn } from '@/components/ui/cn';

/** How each markdown element looks in the side panel (react-markdown renders no raw HTML). */
const COMPONENTS: Components = {
  p: ({ children }) => <p>{children}</p>,
  h1: ({ children }) => <p className="pt-1 text-sm font-semibold text-slate-800">{children}</p>,
  h2: ({ children }) => <p className="pt-1 text-sm font-semibold text-slate-800">{children}</p>,
  h3: ({ children }) => <p className="pt-1 text-sm font-semibold text-slate-800">{children}</p>,
  strong: ({ children }) => <strong className="font-semibold text-slate-800">{children}</strong>,
  ul: ({ children }) => <ul className="list-disc space-y-1 pl-5">{children}</ul>,
  ol: ({ children }) => <ol className="list-decimal space-y-1 pl-5">{children}</ol>,
  a: ({ children, href }) => (
    <a href={href} target="_blank" rel="noreferrer" className="text-teal-700 underline-offset-2 hover:underline">
      {children}
    </a>
  ),
  pre: ({ children }) => (
    <pre
      className={cn(
        'overflow-x-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-xs text-slate-100',
        '[&_code]:bg-transparent [&_code]:p-0 [&_code]:text-slate-100',
      )}
    >
      {children}
    </pre>
  ),
  code: ({ children }) => <code className="rounded bg-slate-100 px-1 py-px font-mono text-[0.85em] text-slate-800">{children}</code>,
};

/** Node documentation (CommonMark, no raw HTML). */
export function Markdown({ source }: { source: string }) {
  return (
    <div className="space-y-2 text-[13px] leading-relaxed text-slate-600">
      <ReactMarkdown components={COMPONENTS}>{source}</ReactMarkdown>
    </div>
  );
}
