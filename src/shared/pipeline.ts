import { z } from 'zod';

/** Isomorphic contract of a pipeline definition (DESIGN.md §3), shared by the server, the engine and the UI. */
export const NodeId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_.-]+$/, 'node ids use letters, digits, "_", "-" and "."');

/** How the engine runs one node, beside its type-specific config (like n8n's node settings). */
export const NodeSettings = z.object({
  timeout_ms: z.number().int().min(10).max(600_000).default(60_000).describe('Time limit of one attempt'),
  retry: z
    .object({
      max_attempts: z.number().int().min(1).max(10).default(1).describe('1 = no retry'),
      backoff_ms: z.number().int().min(0).max(60_000).default(500).describe('Wait before the 2nd attempt; doubles after'),
    })
    .default({ max_attempts: 1, backoff_ms: 500 }),
});
export type NodeSettings = z.infer<typeof NodeSettings>;

export const PipelineNode = z
  .object({
    id: NodeId,
    type: z.string().min(1).max(100),
    name: z.string().max(200).optional(),
    config: z.record(z.string(), z.unknown()).default({}),
    position: z.object({ x: z.number(), y: z.number() }).default({ x: 0, y: 0 }),
    settings: NodeSettings.partial().optional(),
    /** Pinned data: outputs (by port) a test run uses instead of running the node; real runs ignore them. */
    pinned: z.record(z.string(), z.unknown()).optional(),
    /** A disabled node does not run, in test and real runs: its first input passes through to the outputs that fit. */
    disabled: z.boolean().optional(),
  })
  .loose();

export const PipelineConnection = z
  .object({
    id: z.string().min(1).max(200).optional(),
    source: NodeId,
    source_port: z.string().min(1).max(100),
    target: NodeId,
    target_port: z.string().min(1).max(100),
  })
  .loose();

export const NOTE_COLORS = ['yellow', 'blue', 'green', 'pink', 'grey'] as const;

/**
 * A sticky note on the canvas: Markdown text for people. Not a node: the engine, the validator and
 * executions never look at `notes`; it is saved, versioned and exported with the definition.
 */
export const StickyNote = z
  .object({
    id: z.string().min(1).max(100),
    text: z.string().max(20_000).default(''),
    position: z.object({ x: z.number(), y: z.number() }).default({ x: 0, y: 0 }),
    width: z.number().min(80).max(4000).default(240),
    height: z.number().min(60).max(4000).default(160),
    color: z.enum(NOTE_COLORS).default('yellow'),
  })
  .loose();

export const PipelineDefinition = z
  .object({
    nodes: z.array(PipelineNode).max(1000),
    connections: z.array(PipelineConnection).max(5000),
    /** Sticky notes (optional; absent in definitions that have none). */
    notes: z.array(StickyNote).max(500).optional(),
  })
  .loose()
  .superRefine((def, ctx) => {
    const seen = new Set<string>();
    def.nodes.forEach((node, i) => {
      if (seen.has(node.id)) {
        ctx.addIssue({ code: 'custom', path: ['nodes', i, 'id'], message: `duplicate node id "${node.id}"` });
      }
      seen.add(node.id);
    });
    const notes = new Set<string>();
    def.notes?.forEach((note, i) => {
      if (notes.has(note.id)) ctx.addIssue({ code: 'custom', path: ['notes', i, 'id'], message: `duplicate note id "${note.id}"` });
      notes.add(note.id);
    });
  });

export type PipelineDefinition = z.infer<typeof PipelineDefinition>;
export type PipelineNode = z.infer<typeof PipelineNode>;
export type PipelineConnection = z.infer<typeof PipelineConnection>;
export type StickyNote = z.infer<typeof StickyNote>;
export type NoteColor = (typeof NOTE_COLORS)[number];
