import { z } from 'zod';

export const Description = z.string().trim().min(3, 'describe what you want in a few words').max(5000).refine((s) => !s.includes('\u0000'), 'must not contain the NUL character');

export const CopilotChatInput = z.object({
  message: Description.describe('What to design, change or review'),
  stream: z.boolean().default(false).describe('true: answer with Server-Sent Events (thinking, pipeline, validation, dry_run, message, done)'),
  context: z.object({ pipeline_id: z.string().optional().describe('The pipeline the message is about: it is changed (not saved) or reviewed') }).default({}),
  sample_input: z.unknown().optional().describe('A sample for a new pipeline\'s trigger: the design is dry-run on it'),
});
