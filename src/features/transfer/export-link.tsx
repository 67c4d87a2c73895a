import { Download } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';

/** The editor's Export: the pipeline's latest saved version as a portable JSON file (docs/pipeline-export.md). */
export function ExportPipelineLink({ pipelineId, name }: { pipelineId: string; name: string }) {
  const file = `${name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'pipeline'}.clinflow.json`;
  return (
    <a
      href={`/api/pipelines/${pipelineId}/export`}
      download={file}
      aria-label="Export pipeline"
      title="Export the saved pipeline as a JSON file (connectors by name, never credentials)"
      className={buttonClasses('ghost', 'icon')}
    >
      <Download className="size-4" aria-hidden />
    </a>
  );
}
