import { type FhirClient, FhirError } from '@/clinical/fhir/client';
import { clientForConnector } from '@/clinical/fhir/client-connector';
import { NodeError } from '../node-error';
import type { NodeContext } from '../node-type';

/** The FHIR client of a node's `connector` (shared by the fhir-* connector nodes). */
export async function fhirClientOf(ctx: NodeContext, ref: string, timeoutMs: number): Promise<{ client: FhirClient; name: string }> {
  if (ref.trim() === '') {
    throw new NodeError(
      'CONNECTOR_REQUIRED',
      "Set `connector` to the id or name of a `fhir` connector (create one on the Connectors page with the server's base URL and auth).",
    );
  }
  const connector = await ctx.services.connector(ref.trim(), 'fhir');
  try {
    return { client: clientForConnector(connector, ctx.services.fetch, timeoutMs, ctx.services.request), name: connector.name };
  } catch (e) {
    throw asNodeError(e);
  }
}

/** A FhirError as the node's failure (same code and message; messages never hold credentials). */
export function asNodeError(e: unknown): unknown {
  if (e instanceof FhirError) return new NodeError(e.code === 'FHIR_CANCELLED' ? 'CANCELLED' : e.code, e.message);
  return e;
}
