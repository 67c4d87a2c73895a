import type { Condition, Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { expectedBundle, synthea } from '../../../tests/support/clinical/fhir';
import type { NodeType } from '../node-type';
import { runPipeline } from '../run';
import { failure, runNode, testContext, testServices } from '../../../tests/support/engine/node-context';
import { fhirBundleSplitNode as fhirBundleSplit } from './fhir-bundle-split.execute';
import { fhirpathExtractNode } from './fhirpath-extract.execute';
import { getNodeType } from './index';

describe('fhir-bundle-split', () => {
  it('works with its default config: every resource of the ADT^A01 bundle, in entry order, and grouped by type', async () => {
    const bundle = expectedBundle('ADT-A01-01');
    const ctx = testContext();
    const r = await runNode(fhirBundleSplit, {}, { bundle }, ctx);
    const resources = r.outputs.resources as Resource[];
    expect(resources).toHaveLength(119);
    expect(resources.map((x) => x.id)).toEqual(bundle.entry!.map((e) => e.resource!.id));
    const byType = r.outputs.by_type as Record<string, Resource[]>;
    expect(Object.values(byType).reduce((n, rs) => n + rs.length, 0)).toBe(119);
    expect(byType.Patient).toHaveLength(1);
    expect(ctx.logs[0]!.message).toMatch(/^119 of 119 resource\(s\): 1 MessageHeader, 2 Provenance, /);
  });

  it('keeps only the types of its example config: the Patient and three Conditions', async () => {
    const r = await runNode(fhirBundleSplit, fhirBundleSplit.example, { bundle: expectedBundle('ADT-A01-01') });
    expect((r.outputs.resources as Resource[]).map((x) => x.resourceType)).toEqual(['Patient', 'Condition', 'Condition', 'Condition']);
    expect(Object.fromEntries(Object.entries(r.outputs.by_type as Record<string, Resource[]>).map(([t, rs]) => [t, rs.length]))).toEqual({
      Patient: 1,
      Condition: 3,
    });
  });

  it('rewrites urn:uuid references as Type/id when asked', async () => {
    const [patient, condition] = [
      synthea('Patient')[0]!,
      synthea<Condition>('Condition').find((c) => c.subject!.reference === `Patient/${synthea('Patient')[0]!.id}`)!,
    ];
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: `urn:uuid:${patient.id}`, resource: patient },
        { fullUrl: `urn:uuid:${condition.id}`, resource: { ...condition, subject: { reference: `urn:uuid:${patient.id}` } } },
      ],
    };
    const r = await runNode(fhirBundleSplit, { types: ['Condition'], relative_references: true }, { bundle });
    expect((r.outputs.resources as { subject: unknown }[])[0]!.subject).toEqual({ reference: `Patient/${patient.id}` });
  });

  it('feeds a for-each: one body run per resource', async () => {
    // in ─bundle▶ split ─resources▶ each(for-each: item ▶ fhirpath-extract ▶ output "row") ─results▶ out
    const body = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: { fields: { item: 'fhir-resource' } } },
        { id: 'x', type: 'fhirpath-extract', config: { expressions: { type: 'resourceType', onset: 'onset.ofType(dateTime)' } } },
        { id: 'out', type: 'pipeline-output', config: { key: 'row' } },
      ],
      connections: [
        { source: 'in', source_port: 'item', target: 'x', target_port: 'resource' },
        { source: 'x', source_port: 'values', target: 'out', target_port: 'value' },
      ],
    };
    const def = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: { fields: { bundle: 'fhir-bundle' } }, position: { x: 0, y: 0 } },
        { id: 'split', type: 'fhir-bundle-split', config: { types: ['Condition'] }, position: { x: 0, y: 0 } },
        { id: 'each', type: 'for-each', config: { body }, position: { x: 0, y: 0 } },
        { id: 'out', type: 'pipeline-output', config: { key: 'rows' }, position: { x: 0, y: 0 } },
      ],
      connections: [
        { source: 'in', source_port: 'bundle', target: 'split', target_port: 'bundle' },
        { source: 'split', source_port: 'resources', target: 'each', target_port: 'items' },
        { source: 'each', source_port: 'results', target: 'out', target_port: 'value' },
      ],
    };
    const mine: Record<string, NodeType> = {
      'fhir-bundle-split': fhirBundleSplit as unknown as NodeType,
      'fhirpath-extract': fhirpathExtractNode as unknown as NodeType,
    };
    const registry = (id: string) => mine[id] ?? getNodeType(id);
    const bundle = expectedBundle('ADT-A01-01');
    const r = await runPipeline(def, { executionId: 'exec-split', inputs: { bundle }, testMode: false, registry, services: testServices() });
    expect(r.error).toBeNull();
    const onsets = bundle
      .entry!.filter((e) => e.resource!.resourceType === 'Condition')
      .map((e) => (e.resource as { onsetDateTime?: string }).onsetDateTime ?? null);
    expect(r.outputs).toEqual({ rows: onsets.map((onset) => ({ row: { type: 'Condition', onset } })) });
  });

  it('fails with FHIR_NOT_BUNDLE on a single resource', async () => {
    const e = await failure(runNode(fhirBundleSplit, {}, { bundle: synthea('Patient')[0] }));
    expect(e).toMatchObject({ code: 'FHIR_NOT_BUNDLE', message: '"bundle" must be a FHIR Bundle, got a Patient.' });
  });
});
