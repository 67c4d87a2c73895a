import { AlertTriangle, Info, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './cn';

type Tone = 'error' | 'warning' | 'info';

const TONES: Record<Tone, { box: string; icon: ReactNode }> = {
  error: { box: 'border-red-200 bg-red-50 text-red-800', icon: <XCircle className="size-4 shrink-0" aria-hidden /> },
  warning: {
    box: 'border-amber-200 bg-amber-50 text-amber-900',
    icon: <AlertTriangle className="size-4 shrink-0" aria-hidden />,
  },
  info: { box: 'border-sky-200 bg-sky-50 text-sky-900', icon: <Info className="size-4 shrink-0" aria-hidden /> },
};

/** An inline message next to where something happened; errors are announced to screen readers. */
export function Alert({ tone = 'error', title, children, className }: { tone?: Tone; title?: string; children?: ReactNode; className?: string }) {
  const t = TONES[tone];
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={cn('flex gap-2.5 rounded-md border px-3 py-2.5 text-sm', t.box, className)}>
      <span className="mt-0.5">{t.icon}</span>
      <div className="min-w-0 space-y-0.5">
        {title ? <p className="font-medium">{title}</p> : null}
        {children ? <div className="break-words">{children}</div> : null}
      </div>
    </div>
  );
}
