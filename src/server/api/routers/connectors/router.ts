import { z } from 'zod';
import type { ConnectorType } from '@/engine/node-type';
import { readProcedure, router, writeProcedure } from '@/server/api/trpc';
import { createConnector, deleteConnector, getConnector, listConnectors, updateConnector } from '@/server/services/connectors/connectors';
import { testConnector } from '@/server/services/connectors/probe';
import { connectorTypes } from '@/server/services/connectors/types';
import * as S from './connector.schema';

const list = readProcedure
  .meta({ openapi: { method: 'GET', path: '/connectors', tags: S.TAGS, summary: 'List configured connectors', protect: true } })
  .input(S.ListConnectorsInput)
  .output(S.ConnectorList)
  .query(({ ctx, input }) => listConnectors(ctx, { ...input, type: input.type as ConnectorType | undefined }));

// static path before {id}
const types = readProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/connectors/types',
      tags: S.TAGS,
      summary: 'List supported connector types, with the JSON Schema of their settings and credentials',
      protect: true,
    },
  })
  .input(z.object({}))
  .output(S.ConnectorTypes)
  .query(() => connectorTypes());

const create = writeProcedure
  .meta({ audit: { action: 'connector.create', detail: (_i, o) => ({ type: String(o?.type) }) } })
  .meta({
    openapi: { method: 'POST', path: '/connectors', tags: S.TAGS, summary: 'Create a connector (credentials stored encrypted)', protect: true },
    successStatus: 201,
    errors: ['CONNECTOR_NAME_TAKEN', 'CONNECTOR_KEY_MISSING'],
  })
  .input(S.CreateConnectorInput)
  .output(S.Connector)
  .mutation(async ({ ctx, input }) => {
    const connector = await createConnector(ctx, { ...input, type: input.type as ConnectorType });
    ctx.response.headers.Location = `/api/connectors/${connector.id}`;
    return connector;
  });

const get = readProcedure
  .meta({
    openapi: { method: 'GET', path: '/connectors/{id}', tags: S.TAGS, summary: 'Connector details (credentials masked)', protect: true },
    errors: ['CONNECTOR_NOT_FOUND'],
  })
  .input(S.ConnectorId)
  .output(S.Connector)
  .query(({ ctx, input }) => getConnector(ctx, input.id));

const update = writeProcedure
  .meta({ audit: { action: 'connector.update' } })
  .meta({
    openapi: { method: 'PUT', path: '/connectors/{id}', tags: S.TAGS, summary: 'Update a connector', protect: true },
    errors: ['CONNECTOR_NOT_FOUND', 'CONNECTOR_NAME_TAKEN', 'CONNECTOR_KEY_MISSING'],
  })
  .input(S.UpdateConnectorInput)
  .output(S.Connector)
  .mutation(({ ctx, input }) => updateConnector(ctx, input.id, input));

const remove = writeProcedure
  .meta({ audit: { action: 'connector.delete' } })
  .meta({
    openapi: { method: 'DELETE', path: '/connectors/{id}', tags: S.TAGS, summary: 'Delete a connector no deployed pipeline uses', protect: true },
    successStatus: 204,
    errors: ['CONNECTOR_NOT_FOUND', 'CONNECTOR_IN_USE'],
  })
  .input(S.ConnectorId)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await deleteConnector(ctx, input.id);
  });

const test = writeProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/connectors/{id}/test',
      tags: S.TAGS,
      summary: 'Connect for real and report each step (TCP, TLS, auth, FHIR metadata, MLLP ACK, database)',
      protect: true,
    },
    errors: ['CONNECTOR_NOT_FOUND', 'CONNECTOR_KEY_MISSING'],
  })
  .input(S.ConnectorId)
  .output(S.TestResult)
  .mutation(({ ctx, input }) => testConnector(ctx, input.id));

/** Connectors to outside systems (DESIGN.md §3 Connectors; issue 8). */
export const connectorsRouter = router({ list, types, create, get, update, remove, test });
