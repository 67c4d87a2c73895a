import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { dashboard as load } from '@/server/services/executions/dashboard';

function knownTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const Input = z.object({
  days: z.number().int().min(1).max(90).default(14),
  time_zone: z.string().max(64).refine(knownTimeZone, 'Not a time zone: use an IANA name such as Europe/London').default('UTC'),
});

/** The dashboard's figures (runs per day, failing pipelines, slowest nodes). tRPC only: the web app's view. */
export const dashboard = readProcedure.input(Input).query(({ ctx, input }) => load(ctx, input));
