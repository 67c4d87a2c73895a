import type { JSONSchema7, JSONSchema7Definition } from '@ai-sdk/provider';
import type { Extraction } from './extract';

/** What the offline model knows about a request: the text, what it extracted from it, its summary. */
export interface Facts {
  text: string;
  extraction: Extraction;
  summary: string;
}

const asSchema = (d: JSONSchema7Definition | undefined): JSONSchema7 => (typeof d === 'object' ? d : {});
const typeOf = (s: JSONSchema7) =>
  (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type) ?? (s.properties ? 'object' : s.items ? 'array' : 'string');

/** An extracted item as a record of its fields (a copy: interfaces carry no index signature to widen to). */
const fields = <T extends object>(items: T[]): Array<Record<string, unknown>> => items.map((item) => Object.fromEntries(Object.entries(item)));

/** Which extracted list a field name asks for. */
function listFor(name: string, f: Facts): Array<Record<string, unknown>> | undefined {
  const n = name.toLowerCase();
  if (/medic|drug|prescri/.test(n)) return fields(f.extraction.medications);
  if (/condition|diagnos|problem|disease/.test(n)) return fields(f.extraction.conditions.filter((c) => !c.negated));
  if (/observ|vital|lab|result|measure/.test(n)) return fields(f.extraction.observations);
  if (/code/.test(n)) return fields(f.extraction.codes);
  if (/date/.test(n)) return f.extraction.dates.map((d) => ({ date: d, value: d, text: d }));
  return undefined;
}

function scalar(name: string, s: JSONSchema7, f: Facts, source?: Record<string, unknown>): unknown {
  const t = typeOf(s);
  const n = name.toLowerCase();
  const fromSource = source && (source[name] ?? source[Object.keys(source).find((k) => n.includes(k) || k.includes(n)) ?? '']);
  if (s.enum?.length)
    return s.enum.find((e) => typeof e === 'string' && new RegExp(`\\b${e.replace(/\W/g, '.?')}\\b`, 'i').test(String(fromSource ?? f.text))) ?? s.enum[0];
  if (t === 'boolean') return typeof fromSource === 'boolean' ? fromSource : false;
  if (t === 'number' || t === 'integer') {
    const list = listFor(name, f);
    if (/count|number|total/.test(n) && list) return list.length;
    const num = Number(String(fromSource ?? f.text.match(/-?\d+(?:\.\d+)?/)?.[0] ?? 0));
    return t === 'integer' ? Math.round(num) : num;
  }
  if (fromSource !== undefined && fromSource !== null) return String(fromSource);
  if (/summary|text|answer|response|description|note|content/.test(n)) return f.summary;
  if (/date/.test(n)) return f.extraction.dates[0] ?? '';
  if (source) return '';
  return f.summary;
}

/** A value for `schema` filled from the facts: arrays from the extracted lists their names ask for, fields by name. */
export function fillSchema(schema: JSONSchema7, f: Facts, name = '', source?: Record<string, unknown>): unknown {
  const t = typeOf(schema);
  if (t === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, d] of Object.entries(schema.properties ?? {})) out[k] = fillSchema(asSchema(d), f, k, source);
    return out;
  }
  if (t === 'array') {
    const item = asSchema(Array.isArray(schema.items) ? schema.items[0] : schema.items);
    const list = listFor(name, f) ?? [];
    return list.map((entry) => (typeOf(item) === 'object' ? fillSchema(item, f, name, entry) : String(entry.name ?? entry.code ?? entry.value ?? entry.text)));
  }
  return scalar(name, schema, f, source);
}
