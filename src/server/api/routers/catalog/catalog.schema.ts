import { z } from 'zod';
import { CATEGORIES } from '@/server/services/catalog/catalog';

export const TAGS = ['Node catalog'];

const Port = z.object({ name: z.string(), type: z.string(), description: z.string().optional(), optional: z.boolean().optional() });
export const Entry = z.object({
  id: z.string(),
  name: z.string(),
  category: z.enum(CATEGORIES),
  description: z.string(),
  version: z.string(),
  keywords: z.array(z.string()),
  side_effect: z.enum(['none', 'read', 'write']),
  trigger: z.boolean(),
  inputs: z.array(Port),
  outputs: z.array(Port),
  config_schema: z.record(z.string(), z.unknown()).meta({ description: 'JSON Schema of the config; `x-widget` and `x-order` are form hints' }),
  example: z.record(z.string(), z.unknown()).meta({ description: 'A valid config showing the node at work' }),
  errors: z.array(z.object({ code: z.string(), description: z.string() })).meta({ description: 'Codes a run of this node can fail with' }),
  documentation: z.string().meta({ description: 'Markdown: what the node does, its ports, config, example and errors' }),
});
