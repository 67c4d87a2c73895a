import { Badge } from '@/components/ui/badge';
import type { PipelineSummary } from './types';

const HELP = {
  deployed: 'Deployed: runs on its triggers and schedules.',
  active: 'Active: saved but not deployed; it does not run on triggers or schedules.',
} as const;

export function StatusBadge({ status }: { status: PipelineSummary['status'] }) {
  return (
    <span title={HELP[status]}>
      <Badge tone={status === 'deployed' ? 'green' : 'slate'} dot>
        {status === 'deployed' ? 'Deployed' : 'Active'}
      </Badge>
    </span>
  );
}
