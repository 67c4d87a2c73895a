import { z } from 'zod';

/** A tool as GET /api/tools shows it: a built-in one, or the organization's own. */
export const Tool = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string(),
  description: z.string(),
  builtin: z.boolean(),
  input_schema: z.record(z.string(), z.unknown()),
  config_schema: z.record(z.string(), z.unknown()).describe('Settings an assignment to an agent may give (built-in tools)'),
  implementation: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
});
