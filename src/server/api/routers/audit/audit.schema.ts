import { z } from 'zod';
import { Instant } from '../executions/execution.schema';

export const TAGS = ['Audit'];

/** The filters of the audit log, shared by its list and its FHIR export. */
export const AuditFilter = z.object({
  since: Instant.optional().describe('ISO 8601: only entries at or after this time'),
  until: Instant.optional().describe('ISO 8601: only entries before this time'),
  action: z
    .string()
    .trim()
    .regex(/^[a-z-]+(\.[a-z-]+)?$/, 'an action (execution.read) or an object type (pipeline)')
    .max(60)
    .optional()
    .describe('An action, e.g. execution.read, or an object type for all of its actions, e.g. pipeline'),
  actor: z.string().trim().min(1).max(200).optional().describe("The actor's user or key id, or text in their email or key name"),
  object_id: z.string().trim().min(1).max(200).optional().describe('The id of the object acted on (an execution, a pipeline …)'),
  outcome: z.enum(['success', 'failure']).optional(),
});

export const AuditListInput = AuditFilter.extend({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

const Ref = z.object({ type: z.string().nullable(), id: z.string().nullable(), name: z.string().nullable() });

export const AuditEventView = z.object({
  id: z.string(),
  at: z.string().meta({ description: 'When it happened (ISO 8601)' }),
  actor: Ref.meta({ description: 'Who: type user (a person signed in to the app, or signing in) or api-key; id; email or key name' }),
  action: z.string().meta({
    description:
      'session.sign-in, session.sign-in-failed, execution.read (a read of a run’s payloads), execution.retry, ' +
      'pipeline.create/save/deploy/undeploy/delete, agent.create/save/deploy/undeploy/delete, connector.create/update/delete, ' +
      'key.create/revoke, member.invite/role/remove, audit.export',
  }),
  outcome: z.enum(['success', 'failure']),
  object: Ref,
  address: z.string().nullable().meta({ description: 'The client address' }),
  channel: z.string().nullable().meta({ description: 'app (the web app) or api (REST)' }),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});

export const AuditList = z.object({ events: z.array(AuditEventView), total_count: z.number().int() });
