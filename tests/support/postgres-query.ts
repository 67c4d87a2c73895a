import { connectChecked } from '@/server/outbound/connect';
import { OutboundError } from '@/shared/outbound-error';
import { OutboundPolicy } from '@/server/outbound/policy';
import { NodeError } from '@/engine/node-error';
import type { ConnectorHandle, NodeServices } from '@/engine/node-type';
import { testServices } from './engine/node-context';

/** The machine's Postgres (trust auth); TEST_POSTGRES_URL overrides. */
export const PG_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A postgres connector as the connectors service hands it out: the password in credentials, the schema in config. */
export function pgConnector(opts: { schema?: string; url?: string; id?: string } = {}): ConnectorHandle {
  const url = new URL(opts.url ?? PG_URL);
  return {
    id: opts.id ?? `pg-${opts.schema ?? 'x'}`,
    name: 'warehouse',
    type: 'postgres',
    endpoint: url.toString(),
    config: { schema: opts.schema },
    credentials: { password: '' },
    updatedAt: '2025-01-01T00:00:00Z',
  };
}

/** Node services with a real outbound connect (loopback allowed, as OUTBOUND_ALLOW does in tests), counting connections. */
export function pgServices(handle: ConnectorHandle) {
  const policy = OutboundPolicy.fromEntries(['loopback']);
  const counter = { connections: 0 };
  const services: NodeServices = testServices({
    connector: async (ref, type) => {
      if (ref !== handle.name) throw new NodeError('CONNECTOR_NOT_FOUND', `No connector "${ref}"`);
      if (type !== handle.type) throw new NodeError('CONNECTOR_TYPE_MISMATCH', `"${ref}" is not a ${type} connector`);
      return handle;
    },
    connect: async ({ host, port }) => {
      counter.connections++;
      try {
        return await connectChecked({ host, port, policy, timeoutMs: 2000 });
      } catch (e) {
        throw e instanceof OutboundError ? new NodeError(e.code, e.message) : e;
      }
    },
  });
  return { services, counter };
}
