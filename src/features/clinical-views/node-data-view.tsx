'use client';

import { useMemo, useState } from 'react';
import { parseHl7v2, batchMessages, isBatch } from '@/clinical/hl7v2/parse';
import type { Hl7v2Message } from '@/clinical/hl7v2/types';
import { parseX12 } from '@/clinical/x12/parse';
import type { X12Interchange } from '@/clinical/x12/types';
import { JsonView } from '@/components/json-view';
import { Tabs } from '@/components/ui/tabs';
import { portsOf } from '@/engine/node-descriptor';
import { getNodeDescriptor } from '@/engine/nodes/descriptors';
import type { PortType } from '@/shared/ports';
import { clinicalKind, KIND_LABEL, type ClinicalKind } from './detect';
import { FhirView } from './fhir-view';
import { Hl7v2View } from './hl7v2-view';
import { X12View } from './x12-view';

type Readable = { kind: 'hl7v2'; message: Hl7v2Message } | { kind: 'x12'; interchange: X12Interchange } | { kind: 'fhir'; value: Record<string, unknown> };

interface View {
  id: string;
  port: string;
  kind: ClinicalKind;
  readable: Readable;
}

/** The port types of a node type for a config (the catalog's descriptor), by port name. */
export function portTypes(nodeType: string | undefined, config: unknown, side: 'inputs' | 'outputs'): Map<string, PortType> {
  const d = nodeType ? getNodeDescriptor(nodeType) : undefined;
  if (!d) return new Map();
  return new Map(portsOf(d, config)[side].map((p) => [p.name, p.type]));
}

/** What the view shows of a value: raw HL7 / X12 text is parsed here (pure library code); undefined when it does not parse. */
function readable(kind: ClinicalKind, value: unknown): Readable | undefined {
  if (kind === 'hl7v2') return { kind: 'hl7v2', message: value as Hl7v2Message };
  if (kind === 'x12') return { kind: 'x12', interchange: value as X12Interchange };
  if (kind === 'fhir-bundle' || kind === 'fhir-resource') return { kind: 'fhir', value: value as Record<string, unknown> };
  if (kind === 'hl7v2-text') {
    const r = parseHl7v2(value as string);
    if (!r.ok) return undefined;
    const message = isBatch(r.value) ? batchMessages(r.value)[0] : r.value;
    return message ? { kind: 'hl7v2', message } : undefined;
  }
  const r = parseX12(value as string);
  return r.ok ? { kind: 'x12', interchange: r.interchange } : undefined;
}

function viewsOf(value: unknown, types: Map<string, PortType>): View[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const views: View[] = [];
  for (const [port, v] of Object.entries(value)) {
    const kind = clinicalKind(types.get(port), v);
    const r = kind ? readable(kind, v) : undefined;
    if (kind && r) views.push({ id: `view:${port}`, port, kind, readable: r });
  }
  return views;
}

/**
 * A node's inputs or outputs (port → value): HL7 v2, X12 and FHIR values get a reading view, one tab per such
 * port, chosen by the port's type and, failing that, by the value's shape; the JSON tab always shows all of it.
 * Without any such value it is today's JSON view.
 */
export function NodeDataView({
  value,
  nodeType,
  config,
  side = 'outputs',
  label,
}: {
  value: unknown;
  /** The node type whose ports these are; without it (an execution's inputs or outputs) the values' shapes decide */
  nodeType?: string;
  config?: unknown;
  side?: 'inputs' | 'outputs';
  label: string;
}) {
  const types = useMemo(() => portTypes(nodeType, config ?? {}, side), [nodeType, config, side]);
  const views = useMemo(() => viewsOf(value, types), [value, types]);
  const [tab, setTab] = useState<string | null>(null);
  if (views.length === 0) return <JsonView value={value} label={label} />;
  const active = tab === 'json' || views.some((v) => v.id === tab) ? tab! : views[0]!.id;
  const view = views.find((v) => v.id === active);
  return (
    <div className="space-y-2">
      <Tabs
        label="Show as"
        className="border-slate-100"
        value={active}
        onChange={setTab}
        tabs={[...views.map((v) => ({ id: v.id, label: `${KIND_LABEL[v.kind]} · ${v.port}` })), { id: 'json', label: 'JSON' }]}
      />
      {view ? (
        view.readable.kind === 'hl7v2' ? (
          <Hl7v2View message={view.readable.message} label={`${view.port} as HL7 v2`} />
        ) : view.readable.kind === 'x12' ? (
          <X12View interchange={view.readable.interchange} label={`${view.port} as X12`} />
        ) : (
          <FhirView value={view.readable.value} label={`${view.port} as FHIR`} />
        )
      ) : (
        <JsonView value={value} label={label} className="max-h-[32rem]" />
      )}
    </div>
  );
}
