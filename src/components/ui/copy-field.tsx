'use client';

import { Check, Copy } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { cn } from './cn';

/** A read-only value with a copy button; the input is labelled, so tests and screen readers find it. */
export function CopyField({ label, value, className }: { label: string; value: string; className?: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      input.current?.select();
      toast.info('Press Ctrl+C (⌘C) to copy the selected text.');
    }
  }

  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex rounded-md shadow-sm">
        <input
          id={id}
          ref={input}
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          className={cn(
            'block w-full min-w-0 rounded-l-md border border-slate-300 bg-slate-50 px-3',
            'py-2 font-mono text-sm text-slate-900 focus:border-teal-600 focus:outline-none',
          )}
        />
        <button
          type="button"
          onClick={copy}
          aria-label={`Copy ${label}`}
          className={cn(
            'inline-flex items-center gap-1.5 rounded-r-md border border-l-0 border-slate-300',
            'bg-white px-3 text-sm font-medium text-slate-700 hover:bg-slate-50',
          )}
        >
          {copied ? <Check className="size-4 text-emerald-600" aria-hidden /> : <Copy className="size-4" aria-hidden />}
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}
