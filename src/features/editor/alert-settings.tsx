'use client';

import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';

const SELECT = 'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm';

/**
 * "Alerts" in the pipeline's Settings tab: the error pipeline started when a production run fails, and the window
 * within which one alert per error code is sent. Saved at once, without a new version or a deploy.
 */
export function AlertSettings({ pipelineId }: { pipelineId: string }) {
  const utils = api.useUtils();
  const settings = api.alerts.get.useQuery({ id: pipelineId }, { refetchOnWindowFocus: false });
  // the error pipeline is another pipeline of the organization (the server checks it starts with an error trigger)
  const list = api.pipelines.list.useQuery({ limit: 100, offset: 0 }, { refetchOnWindowFocus: false });
  const save = api.alerts.set.useMutation({
    onSuccess: async () => {
      await utils.alerts.get.invalidate({ id: pipelineId });
      toast.success('Alert settings saved: they apply from the next failure');
    },
  });
  if (!settings.data) return <p className="text-xs text-slate-500">{settings.error ? errorMessage(settings.error) : 'Loading alerts…'}</p>;
  const s = settings.data;
  return (
    <AlertForm
      key={`${s.error_pipeline_id}:${s.window_seconds}`}
      initial={{ errorPipelineId: s.error_pipeline_id ?? '', minutes: String(s.window_seconds / 60) }}
      options={(list.data?.pipelines ?? []).filter((p) => p.id !== pipelineId)}
      saving={save.isPending}
      error={save.error ? errorMessage(save.error) : null}
      windows={s.windows}
      alertedBy={s.error_pipeline_of}
      onSave={(errorPipelineId, minutes) =>
        save.mutate({ id: pipelineId, error_pipeline_id: errorPipelineId || null, window_seconds: Math.max(1, Math.round(minutes * 60)) })
      }
    />
  );
}

interface FormProps {
  initial: { errorPipelineId: string; minutes: string };
  options: { id: string; name: string }[];
  saving: boolean;
  error: string | null;
  windows: { error_code: string; last_alert_at: string; held_back: number }[];
  alertedBy: { id: string; name: string }[];
  onSave(errorPipelineId: string, minutes: number): void;
}

function AlertForm({ initial, options, saving, error, windows, alertedBy, onSave }: FormProps) {
  const [errorPipelineId, setErrorPipelineId] = useState(initial.errorPipelineId);
  const [minutes, setMinutes] = useState(initial.minutes);
  const valid = Number(minutes) > 0;
  return (
    <form
      aria-label="Alerts"
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) onSave(errorPipelineId, Number(minutes));
      }}
    >
      <label className="block space-y-1.5 text-sm font-medium text-slate-700">
        <span>Error pipeline</span>
        <select className={SELECT} value={errorPipelineId} onChange={(e) => setErrorPipelineId(e.target.value)}>
          <option value="">None: no alerts</option>
          {options.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <span className="block text-xs font-normal text-slate-500">
          Started with an error-event when a production run fails (never for test runs). It starts with an error trigger and must be deployed.
        </span>
      </label>
      <label className="block space-y-1.5 text-sm font-medium text-slate-700">
        <span>Alert window (minutes)</span>
        <input className={SELECT} type="number" min={0.02} step="any" value={minutes} onChange={(e) => setMinutes(e.target.value)} aria-invalid={!valid} />
        <span className="block text-xs font-normal text-slate-500">At most one alert per error code in this window; the rest are counted into the next.</span>
      </label>
      {error ? <p className="text-xs text-red-600">{error}</p> : null}
      <Button type="submit" size="sm" loading={saving} disabled={!valid}>
        Save alerts
      </Button>
      {windows.some((w) => w.held_back > 0) ? (
        <ul className="space-y-0.5 text-xs text-slate-600" aria-label="Alerts held back">
          {windows
            .filter((w) => w.held_back > 0)
            .map((w) => (
              <li key={w.error_code}>
                <span className="font-mono">{w.error_code}</span>: {w.held_back} held back since the alert at {new Date(w.last_alert_at).toLocaleTimeString()}
              </li>
            ))}
        </ul>
      ) : null}
      {alertedBy.length > 0 ? <p className="text-xs text-slate-600">Error pipeline of: {alertedBy.map((p) => p.name).join(', ')}</p> : null}
    </form>
  );
}
