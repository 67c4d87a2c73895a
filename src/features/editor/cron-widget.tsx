'use client';

import type { WidgetProps } from '@rjsf/utils';
import cronstrue from 'cronstrue';
import { cronProblem, nextRuns } from '@/engine/nodes/schedule-trigger';
import { useEditor } from './store-provider';

/** "0 2 * * *" in words ("At 02:00 AM"), or null when it does not read as cron. */
function inWords(cron: string): string | null {
  try {
    return cronstrue.toString(cron, { use24HourTimeFormat: true, verbose: false });
  } catch {
    return null;
  }
}

function when(iso: string, timeZone: string): string {
  try {
    const parts = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' } as const;
    return new Intl.DateTimeFormat('en-GB', { timeZone, ...parts }).format(new Date(iso));
  } catch {
    return iso;
  }
}

/**
 * A cron field (descriptor hint `widget: 'cron'`): the expression, what it means in words and the next runs
 * in the node's time zone, or what is wrong with it and an example to follow.
 */
export function CronWidget({ id, value, onChange, disabled, readonly, placeholder }: WidgetProps) {
  const timezone = useEditor((s) => {
    const tz = s.nodes.find((n) => n.selected)?.data.config.timezone;
    return typeof tz === 'string' && tz ? tz : 'UTC';
  });
  const cron = typeof value === 'string' ? value : '';
  const problem = cron.trim() ? cronProblem(cron) : null;
  let runs: string[] = [];
  if (cron.trim() && !problem) {
    try {
      runs = nextRuns({ cron, timezone }, 3);
    } catch {
      runs = nextRuns({ cron, timezone: 'UTC' }, 3);
    }
  }
  const words = cron.trim() && !problem ? inWords(cron) : null;
  return (
    <div className="space-y-1.5">
      <input
        id={id}
        className="form-control font-mono"
        value={cron}
        placeholder={placeholder || '0 2 * * *'}
        disabled={disabled || readonly}
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
      />
      {!cron.trim() ? (
        <p className="text-[11px] text-slate-500">
          Five fields: minute hour day-of-month month day-of-week. <code>0 2 * * *</code> runs every day at 02:00; <code>*/15 * * * *</code> every 15 minutes.
        </p>
      ) : problem ? null : (
        <div data-testid="cron-preview" className="rounded-md bg-teal-50 px-2.5 py-1.5 text-[12px] text-teal-900">
          {words ? (
            <p className="font-medium">
              {words} ({timezone})
            </p>
          ) : null}
          <p className="mt-0.5 text-teal-800">Next runs:</p>
          <ul className="ml-4 list-disc">
            {runs.map((r) => (
              <li key={r}>{when(r, timezone)}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
