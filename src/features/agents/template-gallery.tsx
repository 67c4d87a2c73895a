'use client';

import { Sparkles, Wrench } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { QueryState } from '@/components/ui/query-state';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';

/** The built-in base templates; "Use template" copies one into the organization and opens the copy. */
export function TemplateGallery() {
  const router = useRouter();
  const utils = api.useUtils();
  const templates = api.agents.list.useQuery({ base_templates: true, limit: 100, offset: 0 }, { staleTime: Infinity });
  const create = api.agents.create.useMutation({
    onSuccess: (agent) => {
      void utils.agents.list.invalidate();
      toast.success(`“${agent.name}” created from the template`);
      router.push(`/agents/${agent.id}`);
    },
    onError: (e) => toast.error(errorMessage(e)),
  });

  return (
    <section aria-labelledby="templates-heading" className="space-y-3">
      <div>
        <h2 id="templates-heading" className="flex items-center gap-1.5 text-base font-semibold text-slate-900">
          <Sparkles className="size-4 text-teal-700" aria-hidden /> Start from a template
        </h2>
        <p className="text-sm text-slate-500">Each copies its instructions, prompt and tools into a new agent of yours to change as you like.</p>
      </div>
      <QueryState query={templates} what="templates">
        {(d) => (
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {d.agents.map((t) => (
              <li key={t.id} className="flex flex-col rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid={`template-${t.name}`}>
                <div className="flex items-start justify-between gap-2">
                  <h3 className="font-medium text-slate-900">{t.name}</h3>
                  <Badge tone="teal">{t.agent_type}</Badge>
                </div>
                <p className="mt-1 flex-1 text-sm text-slate-500">{t.description}</p>
                <p className="mt-3 flex flex-wrap items-center gap-1 text-xs text-slate-500">
                  <Wrench className="size-3.5" aria-hidden />
                  {t.tools.map((tool) => (
                    <code key={tool} className="rounded bg-slate-100 px-1 py-0.5 text-[11px] text-slate-700">
                      {tool}
                    </code>
                  ))}
                </p>
                <Button
                  variant="secondary"
                  size="sm"
                  className="mt-3 self-start"
                  loading={create.isPending && create.variables?.template_id === t.id}
                  disabled={create.isPending}
                  onClick={() => create.mutate({ template_id: t.id })}
                  aria-label={`Use template ${t.name}`}
                >
                  Use template
                </Button>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
