'use client';

import { Search } from 'lucide-react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useMemo, useState } from 'react';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState } from '@/components/ui/query-state';
import { cn } from '@/components/ui/cn';
import { CATEGORY_LOOK, CATEGORY_ORDER, lookOf } from '@/features/editor/node-look';
import type { Category } from '@/features/editor/types';
import { api } from '@/trpc/react';
import { NodeDetail, type CatalogEntry } from './node-detail';

/** Whether an entry matches every word of the search, in its name, id, description or keywords. */
function matches(entry: CatalogEntry, words: string[]): boolean {
  const text = `${entry.name} ${entry.id} ${entry.description} ${entry.keywords.join(' ')}`.toLowerCase();
  return words.every((w) => text.includes(w));
}

/** /catalog: every node type by category, searchable, with its ports, configuration, errors and documentation. */
export function CatalogPage() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const [query, setQuery] = useState('');
  const catalog = api.catalog.list.useQuery({}, { staleTime: Infinity });
  const nodes = useMemo(() => catalog.data?.nodes ?? [], [catalog.data]);
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = nodes.filter((n) => matches(n, words));
  const selectedId = params.get('node') ?? shown[0]?.id ?? null;
  const selected = nodes.find((n) => n.id === selectedId) ?? null;

  return (
    <>
      <PageHeader
        title="Node catalog"
        description={[
          'Every node you can place on a pipeline: what it does, its ports and their types, its configuration,',
          'the errors it can fail with, and an example. The same catalog is at GET /api/node-catalog.',
        ].join(' ')}
      />
      <QueryState query={catalog} what="the node catalog">
        {() => (
          <div className="grid gap-4 lg:grid-cols-[20rem_minmax(0,1fr)]">
            <Card className="flex max-h-[calc(100vh-12rem)] flex-col overflow-hidden">
              <div className="border-b border-slate-200 p-3">
                <label htmlFor="catalog-search" className="sr-only">
                  Search nodes
                </label>
                <div className="relative">
                  <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-slate-400" aria-hidden />
                  <input
                    id="catalog-search"
                    type="search"
                    value={query}
                    onChange={(e) => setQuery(e.target.value)}
                    placeholder="Search: hl7, fhir, de-identify, claim…"
                    className={cn(
                      'h-9 w-full rounded-md border border-slate-300 bg-white pr-3 pl-8 text-sm shadow-sm',
                      'focus:border-teal-600 focus:ring-2 focus:ring-teal-600/20 focus:outline-none',
                    )}
                  />
                </div>
                <p className="mt-2 text-xs text-slate-500" aria-live="polite">
                  {shown.length} of {nodes.length} node types
                </p>
              </div>
              <nav aria-label="Node types" className="min-h-0 flex-1 overflow-y-auto p-2">
                {CATEGORY_ORDER.map((category: Category) => {
                  const inCategory = shown.filter((n) => n.category === category);
                  if (inCategory.length === 0) return null;
                  return (
                    <div key={category} className="mb-3">
                      <h2 className="px-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">{CATEGORY_LOOK[category].label}</h2>
                      <ul>
                        {inCategory.map((n) => {
                          const look = lookOf(n.category as Category, n.trigger);
                          const Icon = look.icon;
                          const active = n.id === selected?.id;
                          return (
                            <li key={n.id}>
                              <button
                                type="button"
                                aria-current={active ? 'true' : undefined}
                                onClick={() => router.replace(`${pathname}?node=${n.id}`, { scroll: false })}
                                className={cn(
                                  'flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm',
                                  active ? 'bg-teal-50 text-teal-900' : 'text-slate-700 hover:bg-slate-50',
                                )}
                              >
                                <span className={cn('grid size-6 shrink-0 place-items-center rounded', look.tile)}>
                                  <Icon className="size-3.5" aria-hidden />
                                </span>
                                <span className="truncate">{n.name}</span>
                              </button>
                            </li>
                          );
                        })}
                      </ul>
                    </div>
                  );
                })}
                {shown.length === 0 ? <p className="px-2 py-4 text-sm text-slate-500">No node matches “{query}”.</p> : null}
              </nav>
            </Card>
            {selected ? <NodeDetail entry={selected} /> : null}
          </div>
        )}
      </QueryState>
    </>
  );
}
