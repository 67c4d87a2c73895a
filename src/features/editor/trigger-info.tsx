'use client';

import { CronExpressionParser } from 'cron-parser';
import { CopyField } from '@/components/ui/copy-field';
import { getNodeDescriptor } from '@/engine/nodes/descriptors';
import { api } from '@/trpc/react';
import { useEditorActions } from './actions-context';

function NotLive({ children }: { children: string }) {
  return <p className="rounded-md bg-amber-50 px-2.5 py-1.5 text-xs text-amber-800">{children}</p>;
}

/** Where outside systems send to: the webhook URL and a ready curl with the organization filled in. */
function WebhookInfo({ deployed }: { deployed: boolean }) {
  const { pipelineId } = useEditorActions();
  const me = api.account.me.useQuery(undefined, { staleTime: Infinity });
  const url = `${typeof window === 'undefined' ? '' : window.location.origin}/api/webhooks/${pipelineId}`;
  const curl = [
    `curl -X POST '${url}' \\`,
    `  -H 'Authorization: Bearer $CLINFLOW_KEY' \\`,
    `  -H 'X-Organization-ID: ${me.data?.organization.id ?? '<organization id>'}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{"resourceType": "Patient", "name": [{"family": "Example"}]}'`,
  ].join('\n');
  return (
    <div className="space-y-3">
      {deployed ? null : <NotLive>Deploy the pipeline to accept calls: until then the URL answers 409 PIPELINE_NOT_DEPLOYED.</NotLive>}
      <CopyField label="Webhook URL" value={url} />
      <div className="space-y-1.5">
        <p className="text-sm font-medium text-slate-700">Try it with curl</p>
        <pre className="overflow-x-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-[11px] leading-relaxed text-slate-100">{curl}</pre>
        <p className="text-xs text-slate-500">
          $CLINFLOW_KEY: an API key with the execute scope (Settings → API keys). The answer is 202 with the execution id.
        </p>
      </div>
    </div>
  );
}

/** The next five times the schedule fires, in its own time zone and the viewer's. */
function ScheduleInfo({ cron, timezone, deployed }: { cron: string; timezone: string; deployed: boolean }) {
  let times: Date[] = [];
  try {
    const it = CronExpressionParser.parse(cron, { tz: timezone, currentDate: new Date() });
    times = Array.from({ length: 5 }, () => it.next().toDate());
  } catch {
    return null; // the config form already says what is wrong with the expression
  }
  const local = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const at = (d: Date, tz: string) =>
    d.toLocaleString(undefined, { timeZone: tz, weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  return (
    <div className="space-y-2">
      {deployed ? null : <NotLive>Schedules run only while the pipeline is deployed.</NotLive>}
      <p className="text-sm font-medium text-slate-700">Next runs</p>
      <ol className="space-y-1 text-xs text-slate-700" aria-label="Next runs">
        {times.map((t) => (
          <li key={t.getTime()} className="tabular-nums">
            <span className="block">{at(t, timezone)}</span>
            {local !== timezone ? <span className="block text-[11px] text-slate-500">{at(t, local)} your time</span> : null}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** The outside event a node type's trigger waits for that the config panel shows (its URL, its next times); null for other nodes. */
export function triggerInfoKind(nodeType: string): 'webhook' | 'schedule' | null {
  const events = getNodeDescriptor(nodeType)?.trigger?.events ?? [];
  return events.includes('webhook') ? 'webhook' : events.includes('schedule') ? 'schedule' : null;
}

/** What a trigger node listens on, for the node's config panel; nothing for other nodes. */
export function TriggerInfo({ nodeType, config }: { nodeType: string; config: Record<string, unknown> }) {
  const { pipelineId } = useEditorActions();
  const kind = triggerInfoKind(nodeType);
  const pipeline = api.pipelines.get.useQuery({ id: pipelineId }, { refetchOnWindowFocus: false, enabled: kind !== null });
  const deployed = pipeline.data?.status === 'deployed';
  if (kind === 'webhook') return <WebhookInfo deployed={deployed} />;
  if (kind === 'schedule' && typeof config.cron === 'string') {
    return <ScheduleInfo cron={config.cron} timezone={typeof config.timezone === 'string' ? config.timezone : 'UTC'} deployed={deployed} />;
  }
  return null;
}
