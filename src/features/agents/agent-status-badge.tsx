import { Badge } from '@/components/ui/badge';
import type { Agent } from './types';

const LOOK = {
  deployed: { tone: 'green', label: 'Deployed', help: 'Deployed: other systems can invoke it with a key, and pipelines can run it.' },
  active: { tone: 'slate', label: 'Active', help: 'Active: you can chat with it here; deploy it to invoke it from other systems and pipelines.' },
  inactive: { tone: 'amber', label: 'Inactive', help: 'Inactive: retired; it does not chat or run.' },
} as const;

export function AgentStatusBadge({ status }: { status: Agent['status'] }) {
  const look = LOOK[status];
  return (
    <span title={look.help} data-testid="agent-status">
      <Badge tone={look.tone} dot>
        {look.label}
      </Badge>
    </span>
  );
}
