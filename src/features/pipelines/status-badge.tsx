import { Badge } from '@/components/ui/badge';
import type { PipelineSummary } from './types';

const HELP = {
  deployed: 'Deployed: runs on its triggers and schedules.',
  active: 'Not deployed: saved, but it does not run on its triggers or schedules until you deploy it.',
} as const;

export function StatusBadge({ status }: { status: PipelineSummary['status'] }) {
  return (
    <span title={HELP[status]}>
      <Badge tone={status === 'deployed' ? 'green' : 'slate'} dot>
        {status === 'deployed' ? 'Deployed' : 'Not deployed'}
      </Badge>
    </span>
  );
}
