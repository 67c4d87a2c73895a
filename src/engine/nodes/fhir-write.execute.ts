import { createHash } from 'node:crypto';
import type { Bundle, Coding, OperationOutcome, Resource } from '@medplum/fhirtypes';
import { outcomeText } from '@/clinical/fhir/client';
import type { z } from 'zod';
import { fhirPath, FhirPathError } from '@/clinical/fhir/fhirpath';
import { formatIssue, validateFhir } from '@/clinical/fhir/validate';
import { passedUnchanged } from '@/clinical/fhir/validated';
import { NodeError } from '../node-error';
import { implementNode, type NodeContext } from '../node-type';
import { asNodeError, fhirClientOf } from '../lib/fhir-connector';
import { sortedJson } from '../lib/sorted-json';
import { fhirWrite, IDEMPOTENCY_TAG } from './fhir-write';

type Config = z.infer<typeof fhirWrite.config>;

/** What the node sends (and, in test mode, shows instead of sending). */
interface Plan {
  method: 'POST' | 'PUT';
  path: string;
  headers: Record<string, string>;
  body: Resource;
}

/**
 * A key for one resource of one node of one execution: the same on every retry, different per resource. The resource
 * is read with its keys sorted: a retried run gets it back from the database (jsonb), which keeps no key order.
 */
function keyOf(idempotencyKey: string, part: string, resource: Resource): string {
  return createHash('sha256')
    .update(`${idempotencyKey}\n${part}\n${sortedJson(withoutKeyTag(resource))}`)
    .digest('hex')
    .slice(0, 32);
}

function withoutKeyTag(resource: Resource): Resource {
  const tags = resource.meta?.tag?.filter((t) => t.system !== IDEMPOTENCY_TAG);
  if (!resource.meta?.tag) return resource;
  return { ...resource, meta: { ...resource.meta, tag: tags } } as Resource;
}

/** The resource tagged with `key`, and the If-None-Exist search that finds it again. */
function tagged(resource: Resource, key: string): { resource: Resource; ifNoneExist: string } {
  const base = withoutKeyTag(resource);
  const tag: Coding = { system: IDEMPOTENCY_TAG, code: key };
  const meta = { ...base.meta, tag: [...(base.meta?.tag ?? []), tag] };
  return { resource: { ...base, meta } as Resource, ifNoneExist: `_tag=${IDEMPOTENCY_TAG}|${key}` };
}

/** `{{expr}}` of if_none_exist: the first value of the FHIRPath expression on the resource, URL-encoded. */
function ifNoneExistOf(template: string, resource: Resource): string {
  return template.replace(/\{\{(.+?)\}\}/g, (_, expression: string) => {
    let values: unknown[];
    try {
      values = fhirPath(expression.trim())(resource);
    } catch (e) {
      throw new NodeError(
        'FHIR_QUERY_INVALID',
        e instanceof FhirPathError ? `if_none_exist: ${e.message}` : `if_none_exist: {{${expression}}} failed on the resource`,
      );
    }
    const value = values.find((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean');
    if (value === undefined)
      throw new NodeError('FHIR_QUERY_INVALID', `if_none_exist: {{${expression.trim()}}} finds no value in the ${resource.resourceType}`);
    return encodeURIComponent(String(value));
  });
}

function asResource(value: unknown, config: Config): Resource {
  if (!value || typeof value !== 'object' || Array.isArray(value) || typeof (value as Resource).resourceType !== 'string') {
    throw new NodeError('FHIR_INVALID', 'The input is not a FHIR resource (a JSON object with a resourceType)');
  }
  const resource = value as Resource;
  if (config.operation === 'transaction') {
    const type = (resource as Bundle).type;
    if (resource.resourceType !== 'Bundle' || (type !== 'transaction' && type !== 'batch')) {
      throw new NodeError(
        'FHIR_INVALID',
        [
          `A transaction needs a Bundle of type transaction or batch, not`,
          `${resource.resourceType === 'Bundle' ? `a ${type ?? 'typeless'} Bundle` : `a ${resource.resourceType}`}`,
        ].join(' '),
      );
    }
    const noRequest = ((resource as Bundle).entry ?? []).findIndex((e) => !e.request?.method || !e.request?.url);
    if (noRequest >= 0)
      throw new NodeError('FHIR_INVALID', `Bundle.entry[${noRequest}] has no request (method and url): a transaction entry says what to do with its resource`);
  } else if (config.operation === 'update' && !resource.id) {
    throw new NodeError(
      'FHIR_INVALID',
      `An update needs the resource's id (this ${resource.resourceType} has none); use create or conditional-create for new resources`,
    );
  }
  return resource;
}

function planOf(resource: Resource, config: Config, idempotencyKey: string): Plan {
  const type = encodeURIComponent(resource.resourceType);
  switch (config.operation) {
    case 'update':
      return { method: 'PUT', path: `${type}/${encodeURIComponent(resource.id!)}`, headers: {}, body: resource };
    case 'conditional-create':
      return { method: 'POST', path: type, headers: { 'If-None-Exist': ifNoneExistOf(config.if_none_exist!, resource) }, body: resource };
    case 'create': {
      const t = tagged(resource, keyOf(idempotencyKey, 'create', resource));
      return { method: 'POST', path: type, headers: { 'If-None-Exist': t.ifNoneExist }, body: t.resource };
    }
    case 'transaction': {
      const bundle = resource as Bundle;
      const entry = (bundle.entry ?? []).map((e, i) => {
        if (e.request?.method !== 'POST' || e.request.ifNoneExist || !e.resource) return e;
        const t = tagged(e.resource, keyOf(idempotencyKey, `entry ${i}`, e.resource));
        return { ...e, resource: t.resource, request: { ...e.request, ifNoneExist: t.ifNoneExist } };
      });
      return { method: 'POST', path: '', headers: {}, body: { ...bundle, entry } };
    }
  }
}

function validated(resource: Resource, ctx: NodeContext): void {
  if (passedUnchanged(resource)) {
    ctx.log('info', `the ${resource.resourceType} passed fhir-validate and is unchanged since: not validated again`);
    return;
  }
  const errors = validateFhir(resource, { bindings: false }).filter((i) => i.severity === 'error');
  if (errors.length === 0) return;
  const shown = errors.slice(0, 10).map(formatIssue).join('; ');
  throw new NodeError(
    'FHIR_INVALID',
    `The ${resource.resourceType} is not valid FHIR R4 (${errors.length} error${errors.length > 1 ? 's' : ''}): ${shown}${errors.length > 10 ? '; …' : ''}`,
  );
}

/**
 * Entries of the server's response that failed. A transaction is all or nothing, so any failure fails the node
 * (some servers answer 200 with a failed entry inside); a batch's entries stand alone: failures are logged.
 */
function entryFailures(sent: Bundle, response: Bundle, ctx: NodeContext): void {
  const failed = (response.entry ?? []).flatMap((e, i) => {
    const status = Number.parseInt(e.response?.status ?? '', 10);
    if (status >= 200 && status < 300) return [];
    const outcome = e.response?.outcome;
    return [`entry ${i}: ${e.response?.status ?? 'no status'}${outcome && isOutcome(outcome) ? ` ${outcomeText(outcome)}` : ''}`];
  });
  if (failed.length === 0) return;
  if (sent.type === 'transaction') throw new NodeError('FHIR_ERROR', `The transaction failed: ${failed.slice(0, 10).join('; ')}`);
  ctx.log('warn', `${failed.length} batch entries failed: ${failed.slice(0, 10).join('; ')}`);
}

function isOutcome(r: Resource): r is OperationOutcome {
  return r.resourceType === 'OperationOutcome';
}

export const fhirWriteNode = implementNode(fhirWrite, {
  async execute(ctx, inputs, config) {
    const { client, name } = await fhirClientOf(ctx, config.connector, config.timeout_ms);
    const resource = asResource(inputs.resource, config);
    if (config.validate) validated(resource, ctx);
    const plan = planOf(resource, config, ctx.idempotencyKey);
    const target = `${plan.method} ${plan.path || '(base)'} on ${name}`;
    if (ctx.testMode) {
      ctx.log('info', `test mode: would send ${target}`);
      const request = {
        method: plan.method,
        url: client.url(plan.path),
        headers: { 'Content-Type': 'application/fhir+json', ...plan.headers },
        // a copy: the value may be one remembered as valid by identity (validated.ts), which nothing passes on
        body: structuredClone(plan.body),
      };
      return { outputs: { result: { simulated: true, request } }, simulated: true };
    }
    // nothing reads the server's answer (no connection from `result`, and the run keeps no payload): ask for a minimal
    // one, so that the server does not send back, nor this process read, every resource it stored
    const answer = ctx.outputRead('result') ? 'representation' : 'minimal';
    try {
      const options = { signal: ctx.signal, answer } as const;
      const reply =
        plan.method === 'PUT'
          ? await client.update(plan.body, options)
          : plan.path === ''
            ? await client.transaction(plan.body as Bundle, options)
            : await client.create(plan.body, { ...options, ifNoneExist: plan.headers['If-None-Exist'] });
      const created = reply.status === 201;
      ctx.log('info', `${target} → ${reply.status}${plan.method === 'POST' && plan.path && !created ? ' (it existed already: nothing new was written)' : ''}`);
      if (plan.path === '' && reply.resource?.resourceType === 'Bundle') entryFailures(plan.body as Bundle, reply.resource as Bundle, ctx);
      const result = reply.resource ?? reply.outcome ?? { status: reply.status };
      return { outputs: { result, ...(reply.location ? { location: reply.location } : {}) } };
    } catch (e) {
      throw asNodeError(e);
    }
  },
});
