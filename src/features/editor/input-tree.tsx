'use client';

import { useMemo, type DragEvent } from 'react';
import type { Hl7v2Message } from '@/clinical/hl7v2/types';
import { fieldText, hl7Segments } from '@/features/clinical-views/hl7v2-model';
import { pathsOf } from './json-paths';

/** A field of the sample input: what it is called, what it holds, and the JSONata that reads it. */
interface Leaf {
  label: string;
  sample: string;
  expression: string;
}

interface Group {
  label: string;
  leaves: Leaf[];
}

function isHl7(v: unknown): v is Hl7v2Message {
  return !!v && typeof v === 'object' && Array.isArray((v as Hl7v2Message).segments) && !!(v as Hl7v2Message).delimiters;
}

/**
 * An HL7 v2 message by segment, its fields and components with HL7's names (`PID-5 Patient Name`, `PID-5.1 Family
 * Name`), each read by `$hl7($, "PID-5.1")`; empty fields are left out.
 */
function hl7Groups(m: Hl7v2Message): Group[] {
  return hl7Segments(m).map((s) => ({
    label: `${s.of > 1 ? `${s.id}[${s.occurrence}]` : s.id}${s.name ? ` ${s.name}` : ''}`,
    leaves: s.fields
      .filter((f) => !f.empty)
      .flatMap((f) => {
        const whole = { label: `${f.path}${f.name ? ` ${f.name}` : ''}`, sample: fieldText(f, m), expression: `$hl7($, "${f.path}")` };
        const parts = f.repetitions[0] ?? [];
        if (parts.length < 2) return [whole];
        const components = parts
          .filter((c) => c.value)
          .map((c) => ({ label: `${f.path}.${c.n}${c.name ? ` ${c.name}` : ''}`, sample: c.value, expression: `$hl7($, "${f.path}.${c.n}")` }));
        return [whole, ...components];
      }),
  }));
}

/** JSON (FHIR resources and Bundles too) by its paths, grouped by their first step (`name`, `entry`, `birthDate`). */
function jsonGroups(value: unknown): Group[] {
  const groups = new Map<string, Leaf[]>();
  for (const p of pathsOf(value)) {
    const head = p.path.split(/[.[]/)[0] || p.path;
    const list = groups.get(head) ?? [];
    list.push({ label: p.path, sample: p.sample, expression: p.path });
    groups.set(head, list);
  }
  return [...groups].map(([label, leaves]) => ({ label, leaves }));
}

/**
 * The node's sample input as a tree to map from: HL7 v2 with field names, FHIR and plain JSON by path. A field
 * dragged into an expression (onto a key of an object being built, or anywhere in it) writes the JSONata that reads
 * it there — CodeMirror takes the dragged text where it is dropped; a click inserts it at the cursor.
 */
export function InputTree({ input, onInsert }: { input: unknown; onInsert: (expression: string) => void }) {
  const groups = useMemo(() => (isHl7(input) ? hl7Groups(input) : jsonGroups(input)), [input]);
  const onDragStart = (e: DragEvent, expression: string) => {
    e.dataTransfer.setData('text/plain', expression);
    e.dataTransfer.effectAllowed = 'copy';
  };
  if (groups.length === 0) return <p className="text-xs text-slate-500">The input has no fields ({JSON.stringify(input)?.slice(0, 60)}).</p>;
  return (
    <div role="tree" aria-label="Input fields" className="max-h-72 overflow-y-auto rounded-md border border-slate-200 bg-white text-[11px]">
      {groups.map((g, i) => (
        <details key={`${g.label}:${i}`} open={i < 4} className="border-b border-slate-100 last:border-0">
          <summary className="cursor-pointer px-2 py-1 font-semibold text-slate-700 hover:bg-slate-50">{g.label}</summary>
          <ul role="group" className="pb-1">
            {g.leaves.map((l) => (
              <li key={l.expression} role="treeitem" aria-selected={false}>
                <button
                  type="button"
                  draggable
                  onDragStart={(e) => onDragStart(e, l.expression)}
                  onClick={() => onInsert(l.expression)}
                  aria-label={l.label}
                  title={`${l.expression} = ${l.sample.slice(0, 120)}`}
                  data-expression={l.expression}
                  className="flex w-full cursor-grab items-baseline gap-2 px-3 py-0.5 text-left hover:bg-teal-50 active:cursor-grabbing"
                >
                  <span className="shrink-0 font-mono text-slate-800">{l.label}</span>
                  <span className="min-w-0 truncate text-slate-500">{l.sample}</span>
                </button>
              </li>
            ))}
          </ul>
        </details>
      ))}
    </div>
  );
}
