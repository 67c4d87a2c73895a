import type { Resource } from '@medplum/fhirtypes';
import { cancelExport, kickOffExport, readExportFile, waitForExport } from '@/clinical/fhir/client-bulk';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { BULK_EXPORTS_PER_ORG, fhirBulkExport } from './fhir-bulk-export';
import { asNodeError, fhirClientOf } from '../lib/fhir-connector';
import { processWide } from '../lib/process-wide';

interface Slots {
  running: number;
  waiting: (() => void)[];
}

/** Running exports per organization (`services.tenant`), in this process: the count is not shared between processes. */
const slotsByOrg = processWide('bulk-export-slots', () => new Map<string, Slots>());

/** Takes one of the organization's export slots (waiting for one, or failing, per `onLimit`); returns its release. */
async function takeSlot(org: string, onLimit: 'wait' | 'fail', signal: AbortSignal, deadline: number): Promise<() => void> {
  let slots = slotsByOrg.get(org);
  if (!slots) slotsByOrg.set(org, (slots = { running: 0, waiting: [] }));
  const own = slots;
  const release = () => {
    const next = own.waiting.shift();
    if (next) next(); // the slot passes straight to the next waiter
    else if (--own.running === 0) slotsByOrg.delete(org);
  };
  if (own.running < BULK_EXPORTS_PER_ORG) {
    own.running++;
    return release;
  }
  const busy = `${BULK_EXPORTS_PER_ORG} bulk exports of this organization are already running (the Bulk Data limit)`;
  if (onLimit === 'fail') throw new NodeError('BULK_EXPORT_LIMIT', `${busy}; set on_limit to "wait" to queue instead`);
  await new Promise<void>((resolve, reject) => {
    const done = (error?: NodeError) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (error) {
        own.waiting.splice(own.waiting.indexOf(granted), 1);
        reject(error);
      } else resolve();
    };
    const granted = () => done();
    const onAbort = () => done(new NodeError('CANCELLED', 'The execution was cancelled while waiting for a bulk export slot'));
    const timer = setTimeout(() => done(new NodeError('BULK_EXPORT_LIMIT', `${busy} and none finished within max_wait_s`)), Math.max(0, deadline - Date.now()));
    signal.addEventListener('abort', onAbort, { once: true });
    own.waiting.push(granted);
  });
  return release;
}

export const fhirBulkExportNode = implementNode(fhirBulkExport, {
  async execute(ctx, _inputs, config) {
    const deadline = Date.now() + config.max_wait_s * 1000;
    const { client, name } = await fhirClientOf(ctx, config.connector, config.timeout_ms);
    const release = await takeSlot(ctx.services.tenant, config.on_limit, ctx.signal, deadline);
    let statusUrl: string | undefined;
    try {
      const request = { level: config.level, groupId: config.group_id, types: config.types, ...(config.since ? { since: config.since } : {}) };
      statusUrl = await kickOffExport(client, request, { signal: ctx.signal });
      ctx.log('info', `${config.level} export started on ${name}`);
      let lastProgress: string | undefined;
      const manifest = await waitForExport(client, statusUrl, {
        signal: ctx.signal,
        maxWaitMs: Math.max(0, deadline - Date.now()),
        onProgress: (progress) => {
          if (progress && progress !== lastProgress) ctx.log('debug', `export in progress: ${progress}`);
          lastProgress = progress;
        },
      });
      const announced = manifest.output.reduce((n, f) => n + (f.count ?? 0), 0);
      ctx.log('info', `export ready: ${manifest.output.length} files${announced ? `, ${announced} resources` : ''}`);
      for (const e of manifest.error) ctx.log('warn', `the server reported errors in an ${e.type} file (${e.count ?? '?'} entries)`);
      const keep = config.output === 'resources';
      const tooMany = () =>
        new NodeError('BULK_EXPORT_TOO_LARGE', `The export holds more than max_resources (${config.max_resources}) resources: narrow it with types or since, raise max_resources, or set output to "counts"`);
      if (keep && announced > config.max_resources) throw tooMany();
      const counts: Record<string, number> = {};
      const resources: Resource[] = [];
      for (const file of manifest.output) {
        for await (const resource of readExportFile(client, file, manifest, { signal: ctx.signal, timeoutMs: config.timeout_ms })) {
          counts[resource.resourceType] = (counts[resource.resourceType] ?? 0) + 1;
          if (!keep) continue;
          if (resources.length === config.max_resources) throw tooMany();
          resources.push(resource);
        }
      }
      ctx.log('info', `export read: ${Object.entries(counts).map(([t, n]) => `${t} ${n}`).join(', ') || 'nothing'}`);
      return { outputs: keep ? { resources, counts } : { counts } };
    } catch (e) {
      throw asNodeError(e);
    } finally {
      release();
      // the files are read (or no longer wanted): the server may delete them
      if (statusUrl) await cancelExport(client, statusUrl);
    }
  },
});
