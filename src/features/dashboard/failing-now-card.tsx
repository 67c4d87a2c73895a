import { AlertOctagon } from 'lucide-react';
import Link from 'next/link';
import type { FailingPipeline as Failing } from '@/server/services/alerts/failing-now';

/** The pipelines failing now (their latest production run failed): shown above everything else, only when there are some. */
export function FailingNowCard({ pipelines }: { pipelines: Failing[] }) {
  if (pipelines.length === 0) return null;
  return (
    <section aria-labelledby="failing-now-heading" className="rounded-lg border border-red-200 bg-red-50 p-4">
      <h2 id="failing-now-heading" className="mb-2 flex items-center gap-1.5 text-sm font-semibold text-red-800">
        <AlertOctagon className="size-4" aria-hidden />
        Failing now
      </h2>
      <ul className="divide-y divide-red-100 text-sm">
        {pipelines.map((p) => (
          <li key={p.pipeline_id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-1.5" data-testid="failing-now">
            <span className="rounded bg-red-600 px-1.5 py-0.5 text-[11px] font-semibold tracking-wide text-white uppercase">failing</span>
            <Link href={`/executions?pipeline=${p.pipeline_id}&status=failed`} className="font-medium text-red-900 hover:underline">
              {p.name}
            </Link>
            <span className="font-mono text-xs text-red-700">{p.last_error_code ?? 'failed'}</span>
            <span className="text-xs text-red-700">
              {p.failed_last_hour} failed in the last hour · last at {new Date(p.last_failed_at).toLocaleTimeString()}
              {p.held_back > 0 ? ` · ${p.held_back} alert${p.held_back === 1 ? '' : 's'} held back` : ''}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
