import type { Resource } from '@medplum/fhirtypes';
import { cancelExport, kickOffExport, readExportFile, waitForExport } from '@/clinical/fhir/client-bulk';
import { NodeError } from '../node-error';
import { implementNode, type NodeContext } from '../node-type';
import { BULK_EXPORTS_PER_ORG, fhirBulkExport } from './fhir-bulk-export';
import { asNodeError, fhirClientOf } from '../lib/fhir-connector';

/** Takes one of the organization's export slots, shared by every process (waiting for one, or failing, per `onLimit`); returns its release. */
async function takeSlot(ctx: NodeContext, onLimit: 'wait' | 'fail', deadline: number): Promise<() => Promise<void>> {
  const release = await ctx.services.slot('fhir-bulk-export', BULK_EXPORTS_PER_ORG, {
    signal: ctx.signal,
    waitUntil: onLimit === 'wait' ? deadline : undefined,
  });
  if (release) return release;
  if (ctx.signal.aborted) throw new NodeError('CANCELLED', 'The execution was cancelled while waiting for a bulk export slot');
  const busy = `${BULK_EXPORTS_PER_ORG} bulk exports of this organization are already running (the Bulk Data limit)`;
  throw new NodeError(
    'BULK_EXPORT_LIMIT',
    onLimit === 'fail' ? `${busy}; set on_limit to "wait" to queue instead` : `${busy} and none finished within max_wait_s`,
  );
}

export const fhirBulkExportNode = implementNode(fhirBulkExport, {
  async execute(ctx, _inputs, config) {
    const deadline = Date.now() + config.max_wait_s * 1000;
    const { client, name } = await fhirClientOf(ctx, config.connector, config.timeout_ms);
    const release = await takeSlot(ctx, config.on_limit, deadline);
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
        new NodeError(
          'BULK_EXPORT_TOO_LARGE',
          [
            `The export holds more than max_resources (${config.max_resources}) resources:`,
            `narrow it with types or since, raise max_resources, or set output to "counts"`,
          ].join(' '),
        );
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
      ctx.log(
        'info',
        `export read: ${
          Object.entries(counts)
            .map(([t, n]) => `${t} ${n}`)
            .join(', ') || 'nothing'
        }`,
      );
      return { outputs: keep ? { resources, counts } : { counts } };
    } catch (e) {
      throw asNodeError(e);
    } finally {
      // a slot the database could not free now frees itself when its lease runs out
      await release().catch((e: unknown) => ctx.log('warn', `the bulk export slot was not released at once: ${e instanceof Error ? e.message : String(e)}`));
      // the files are read (or no longer wanted): the server may delete them
      if (statusUrl) await cancelExport(client, statusUrl);
    }
  },
});
