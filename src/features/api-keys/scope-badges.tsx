import { Badge } from '@/components/ui/badge';

export function ScopeBadges({ scopes }: { scopes: string[] }) {
  return (
    <div className="flex max-w-xs flex-wrap gap-1">
      {scopes.map((s) => (
        <Badge key={s} tone={s === 'admin' ? 'amber' : s.startsWith('agent/') ? 'slate' : 'teal'} className="font-mono">
          <span className="max-w-48 truncate" title={s}>
            {s}
          </span>
        </Badge>
      ))}
    </div>
  );
}
