'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorMessage } from '@/trpc/errors';
import { api, type RouterOutputs } from '@/trpc/react';

type Report = RouterOutputs['transfer']['importMany'];
const SELECT = 'block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900';

/**
 * Pipelines → Import: choose an exported file; a dry run shows each connector it needs and what it matches here (change
 * the match, or leave it missing), and each pipeline's validation; Import creates them, never deployed.
 */
export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const router = useRouter();
  const utils = api.useUtils();
  const [document, setDocument] = useState<unknown>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [map, setMap] = useState<Record<string, string>>({});
  const [report, setReport] = useState<Report | null>(null);
  const connectors = api.connectors.list.useQuery({ limit: 100, offset: 0 }, { enabled: open });
  const importer = api.transfer.importMany.useMutation();

  const close = () => {
    setDocument(null);
    setReport(null);
    setMap({});
    setFileError(null);
    importer.reset();
    onClose();
  };
  const preview = (doc: unknown, connectorMap: Record<string, string>) =>
    importer.mutate({ document: doc, connector_map: connectorMap, dry_run: true }, { onSuccess: (r) => setReport(r) });

  async function choose(file: File | undefined) {
    if (!file) return;
    try {
      const doc: unknown = JSON.parse(await file.text());
      setDocument(doc);
      setFileError(null);
      setMap({});
      preview(doc, {});
    } catch {
      setFileError(`${file.name} is not a JSON file.`);
    }
  }

  function remap(name: string, target: string) {
    const next = { ...map };
    if (target) next[name] = target;
    else delete next[name];
    setMap(next);
    preview(document, next);
  }

  function runImport() {
    importer.mutate(
      { document, connector_map: map, dry_run: false },
      {
        onSuccess: (r) => {
          void utils.pipelines.list.invalidate();
          toast.success(`Imported ${r.pipelines.length === 1 ? `“${r.pipelines[0]!.name}”` : `${r.pipelines.length} pipelines`} (not deployed)`);
          close();
          const first = r.pipelines[0]?.id;
          if (first && r.pipelines.length === 1) router.push(`/pipelines/${first}`);
        },
      },
    );
  }

  const footer = (
    <>
      <Button variant="secondary" onClick={close}>
        Cancel
      </Button>
      <Button onClick={runImport} disabled={!report || importer.isPending} loading={importer.isPending && report !== null}>
        Import {report ? (report.pipelines.length === 1 ? 'pipeline' : `${report.pipelines.length} pipelines`) : ''}
      </Button>
    </>
  );

  return (
    <Dialog open={open} onClose={close} title="Import pipelines" description="A file exported from Clinflow (the editor's Export, or the API)." footer={footer}>
      <div className="space-y-4">
        <label className="block text-sm font-medium text-slate-700">
          Export file
          <input type="file" accept="application/json,.json" className="mt-1 block w-full text-sm" onChange={(e) => void choose(e.target.files?.[0])} />
        </label>
        {fileError ? <Alert title="Cannot read the file">{fileError}</Alert> : null}
        {importer.error ? <Alert title="The file cannot be imported">{errorMessage(importer.error)}</Alert> : null}
        {report ? <ImportPreview report={report} map={map} connectors={connectors.data?.connectors ?? []} onRemap={remap} /> : null}
      </div>
    </Dialog>
  );
}

interface PreviewProps {
  report: Report;
  map: Record<string, string>;
  connectors: { id: string; name: string; type: string }[];
  onRemap: (name: string, target: string) => void;
}

function problems(errors: string[]): string {
  return `${errors.length} problem${errors.length === 1 ? '' : 's'}: ${errors[0]}`;
}

function ImportPreview({ report, map, connectors, onRemap }: PreviewProps) {
  return (
    <div className="space-y-3 text-sm">
      <ul className="space-y-1" aria-label="Pipelines in the file">
        {report.pipelines.map((p) => (
          <li key={p.name} className="text-slate-700">
            <span className="font-medium text-slate-900">{p.name}</span> — {p.valid ? 'valid' : problems(p.errors)}
          </li>
        ))}
      </ul>
      {report.connectors.length ? (
        <table className="w-full text-left" aria-label="Connectors">
          <thead>
            <tr className="text-xs text-slate-500 uppercase">
              <th className="py-1">In the file</th>
              <th className="py-1">Use here</th>
            </tr>
          </thead>
          <tbody>
            {report.connectors.map((c) => (
              <tr key={`${c.type}:${c.name}`}>
                <td className="py-1 pr-2">
                  {c.name} <span className="text-xs text-slate-500">({c.type})</span>
                </td>
                <td className="py-1">
                  <select
                    aria-label={`Connector for ${c.name}`}
                    className={SELECT}
                    value={map[c.name] ?? c.mapped_to?.id ?? ''}
                    onChange={(e) => onRemap(c.name, e.target.value)}
                  >
                    <option value="">— missing: create one named “{c.name}” later —</option>
                    {connectors
                      .filter((o) => o.type === c.type)
                      .map((o) => (
                        <option key={o.id} value={o.id}>
                          {o.name}
                        </option>
                      ))}
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {report.missing_connectors.length ? (
        <Alert tone="warning" title="Missing connectors">
          {report.missing_connectors.map((m) => `${m.name} (${m.type})`).join(', ')}: the imported nodes keep these names; they run once a connector of that
          name and type exists, or after you pick one above.
        </Alert>
      ) : null}
    </div>
  );
}
