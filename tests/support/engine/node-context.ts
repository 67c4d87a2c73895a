import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { NodeError } from '@/engine/node-error';
import { exchangeViaFetch } from '@/shared/http-exchange';
import type { LogEntry, NodeContext, NodeResult, NodeServices, NodeType } from '@/engine/node-type';

/** A NodeContext for node tests, with the logs it received collected in `logs`. */
export type TestContext = NodeContext & { logs: LogEntry[] };

let seq = 0;

/**
 * Slots for node tests, counted in this process (the server counts them in the database, see
 * src/server/services/executions/org-slots.ts): a waiting taker gets a slot as soon as one is released.
 */
const memorySlots = {
  held: new Map<string, number>(),
  async acquire(name: string, limit: number, options: { signal: AbortSignal; waitUntil?: number }): Promise<(() => Promise<void>) | null> {
    for (;;) {
      const n = this.held.get(name) ?? 0;
      if (n < limit) {
        this.held.set(name, n + 1);
        let released = false;
        return async () => {
          if (released) return;
          released = true;
          this.held.set(name, (this.held.get(name) ?? 1) - 1);
        };
      }
      if ((options.waitUntil ?? 0) <= Date.now() || options.signal.aborted) return null;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  },
};

/** Node services for tests: no network unless a `fetch` is given; one fixed key per purpose, as an organization has. */
export function testServices(overrides: Partial<NodeServices> = {}): NodeServices {
  const fetch = overrides.fetch ?? ((() => Promise.reject(new Error('no network in node tests'))) as typeof globalThis.fetch);
  return {
    tenant: 'test-org',
    fetch,
    // over the given fetch, unless a test gives the server's own exchange (createOutbound(…).request)
    request: exchangeViaFetch(fetch),
    orgKey: async (purpose) => new Uint8Array(createHash('sha256').update(`test-org:${purpose}`).digest()),
    connector: (ref) => Promise.reject(new NodeError('CONNECTOR_NOT_FOUND', `No connector "${ref}" in this test (pass one in testServices({connector}))`)),
    languageModel: (id) => {
      throw new NodeError('MODEL_UNAVAILABLE', `No language model "${id}" in this test (pass one in testServices({languageModel}))`);
    },
    agent: (id) => Promise.reject(new NodeError('AGENT_NOT_FOUND', `No agent "${id}" in this test (pass one in testServices({agent}))`)),
    modelCall: () => {},
    slot: (name, limit, options) => memorySlots.acquire(`${name}`, limit, options),
    connect: ({ host, port }) =>
      Promise.reject(new NodeError('OUTBOUND_FAILED', `No network in node tests: ${host}:${port} (pass a connect in testServices({connect}))`)),
    ...overrides,
  };
}

export function testContext(overrides: Partial<NodeContext> = {}): TestContext {
  const executionId = overrides.executionId ?? `exec-test-${++seq}`;
  const nodeId = overrides.nodeId ?? 'node';
  const logs: LogEntry[] = [];
  return {
    executionId,
    nodeId,
    testMode: false,
    executionInputs: {},
    idempotencyKey: `${executionId}:${nodeId}`,
    signal: new AbortController().signal,
    log: (level, message) => logs.push({ level, message, time: new Date().toISOString() }),
    runSubgraph: () => Promise.reject(new Error('runSubgraph is not available in this test')),
    // every output read, as in a run that keeps its records
    outputRead: () => true,
    services: testServices(),
    ...overrides,
    logs,
  };
}

/** Parses `config` with the node's own schema (as the engine does), then runs the node. */
export function runNode<C extends z.ZodType>(
  node: NodeType<C>,
  config: unknown,
  inputs: Record<string, unknown>,
  ctx: NodeContext = testContext(),
): Promise<NodeResult> {
  return node.execute(ctx, inputs, node.config.parse(config));
}

/** The NodeError a run fails with; fails the test when the run succeeds or throws something else. */
export async function failure(run: Promise<unknown>): Promise<NodeError> {
  const outcome = await run.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected the node to fail, it gave ${JSON.stringify(outcome.value)}`);
  if (!(outcome.error instanceof NodeError)) throw new Error(`expected a NodeError, got ${String(outcome.error)}`);
  return outcome.error;
}

/**
 * Trimmed resources from the Synthea sample (/work/shared/data/synthea-10), inlined so tests run anywhere:
 * four Patients and five Conditions (one resolved, four active).
 */
export const SYNTHEA_PATIENTS = [
  patient(
    '129c6ac7-8d06-89de-ad63-0204a93e76c3',
    'female',
    '1927-05-21',
    'Medhurst46',
    ['Sumiko254', 'Larue605'],
    'Emporia',
    '66801',
    '1989-05-09T20:35:22-04:00',
  ),
  patient('3af3708d-41f1-cd80-f3dd-ec5ac76072bf', 'male', '1960-04-13', 'Cole117', ['Devin82', 'Anibal473'], 'Haysville', '67216', '1971-10-01T13:44:40-04:00'),
  patient('63ee2253-bdd5-da55-2ad2-b4984d0ad700', 'male', '2011-03-23', 'Schmitt836', ['Denis399', 'Lincoln623'], 'Cunningham', '67035'),
  patient('6a4160eb-a793-2f86-2302-378626f46cce', 'female', '1963-07-15', 'Cummings51', ['Yvone889', 'Janina163'], 'Overland Park', '66083'),
];

export const SYNTHEA_CONDITIONS = [
  condition(
    '0070163b-65cf-dec8-3019-6221f0ae0560',
    'resolved',
    '160903007',
    'Full-time employment (finding)',
    '6a4160eb-a793-2f86-2302-378626f46cce',
    '2016-03-07T14:19:13-05:00',
  ),
  condition(
    '088b0031-3aef-47b0-4924-2c16980692d9',
    'active',
    '19169002',
    'Miscarriage in first trimester',
    '6a4160eb-a793-2f86-2302-378626f46cce',
    '1985-06-24T14:37:35-04:00',
  ),
  condition(
    '0c46bc9f-a5e2-193f-9d7c-cb66c9cd5ef6',
    'active',
    '254637007',
    'Non-small cell lung cancer (disorder)',
    '129c6ac7-8d06-89de-ad63-0204a93e76c3',
    '1984-10-31T19:35:22-05:00',
  ),
  condition(
    '112da742-a58a-ec99-6143-e3292c652737',
    'active',
    '271737000',
    'Anemia (disorder)',
    '129c6ac7-8d06-89de-ad63-0204a93e76c3',
    '1972-04-29T22:58:16-05:00',
  ),
  condition(
    '1201ae3d-b3fd-4773-1c39-aca32d9b9cd8',
    'active',
    '414545008',
    'Ischemic heart disease (disorder)',
    '129c6ac7-8d06-89de-ad63-0204a93e76c3',
    '1977-05-21T23:58:16-04:00',
  ),
];

function patient(id: string, gender: string, birthDate: string, family: string, given: string[], city: string, postalCode: string, deceased?: string) {
  return {
    resourceType: 'Patient',
    id,
    gender,
    birthDate,
    ...(deceased ? { deceasedDateTime: deceased } : {}),
    name: [{ use: 'official', family, given }],
    address: [{ city, state: 'KS', postalCode }],
  };
}

function condition(id: string, status: string, code: string, display: string, patientId: string, onset: string) {
  return {
    resourceType: 'Condition',
    id,
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: status }] },
    code: { coding: [{ system: 'http://snomed.info/sct', code, display }], text: display },
    subject: { reference: `Patient/${patientId}` },
    onsetDateTime: onset,
  };
}
