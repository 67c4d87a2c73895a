import type { RJSFSchema, RJSFValidationError } from '@rjsf/utils';

/** A new map entry or list item of an enum type starts at `any` (or the first value) instead of blank. */
function withEnumDefaults(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withEnumDefaults);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = withEnumDefaults(v);
  for (const key of ['additionalProperties', 'items'] as const) {
    const sub = out[key] as { enum?: unknown[]; default?: unknown } | undefined;
    if (sub && typeof sub === 'object' && Array.isArray(sub.enum) && sub.default === undefined && sub.enum.length) {
      out[key] = { ...sub, default: sub.enum.includes('any') ? 'any' : sub.enum[0] };
    }
  }
  return out;
}

/** What a field edited as JSON text holds: a list, an object, or (no type in the schema) any JSON value. */
export type JsonKind = 'array' | 'object' | 'any';

export function jsonKindOf(schema: { type?: unknown }): JsonKind {
  return schema.type === 'array' ? 'array' : schema.type === 'object' ? 'object' : 'any';
}

export const EMPTY_JSON: Record<JsonKind, unknown> = { array: [], object: {}, any: undefined };

/** Parses a JSON field's text to the kind its schema asks for (a list, an object, any value), or says what is wrong. */
export function parseJsonOf(kind: JsonKind, text: string): { value: unknown } | { error: string } {
  if (!text.trim()) return { value: EMPTY_JSON[kind] };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: `Not valid JSON: ${(e as Error).message}` };
  }
  if (kind === 'array' && !Array.isArray(v)) return { error: 'Enter a JSON list: [ … ]' };
  if (kind === 'object' && (!v || typeof v !== 'object' || Array.isArray(v))) return { error: 'Enter a JSON object: { … }' };
  return { value: v };
}

/**
 * The form's schema from the node's config schema. The draft-2020 `$schema` of zod's output trips Ajv's
 * draft-07 default; the keywords used are common to both. A field edited as JSON keeps only its kind (list or
 * object), title and description: the form must not fill defaults into it (a nested pipeline would gain settings
 * nobody set), and the validator checks what is inside.
 */
export function prepareFormSchema(schema: Record<string, unknown>): RJSFSchema {
  const { $schema: _ignored, ...rest } = schema;
  const properties = rest.properties as Record<string, RJSFSchema> | undefined;
  if (properties) {
    rest.properties = Object.fromEntries(
      Object.entries(properties).map(([name, p]) => {
        if (p['x-widget'] !== 'json') return [name, p];
        const kind = jsonKindOf(p);
        return [name, { ...(kind === 'any' ? {} : { type: kind }), description: p.description, title: p.title, 'x-widget': 'json' }];
      }),
    );
  }
  return withEnumDefaults(rest) as RJSFSchema;
}

/** The label a form shows for the field an error is on: its title, else its last name in words. */
function labelAt(schema: RJSFSchema, property: string | undefined): string | null {
  const path = (property ?? '').split('.').filter(Boolean);
  let node: RJSFSchema | undefined = schema;
  let title: string | null = null;
  for (const step of path) {
    const next: unknown = /^\d+$/.test(step) ? (node?.items as RJSFSchema | undefined) : (node?.properties?.[step] ?? node?.additionalProperties);
    node = next && typeof next === 'object' ? (next as RJSFSchema) : undefined;
    title = node?.title ?? step.replace(/_/g, ' ');
  }
  return title;
}

/** Ajv's wording ("must be >= 1", "must be object") as what to enter, for a side panel. */
export function plainFormError(e: RJSFValidationError, schema: RJSFSchema): RJSFValidationError {
  const label = labelAt(schema, e.property) ?? 'This field';
  const p = (e.params ?? {}) as Record<string, unknown>;
  const message = (() => {
    switch (e.name) {
      case 'required':
        return 'Required: fill it in';
      case 'enum':
        return 'Pick one of the listed values';
      case 'minimum':
        return `Enter ${p.limit} or more`;
      case 'exclusiveMinimum':
        return `Enter more than ${p.limit}`;
      case 'maximum':
        return `Enter ${p.limit} or less`;
      case 'exclusiveMaximum':
        return `Enter less than ${p.limit}`;
      case 'minLength':
        return p.limit === 1 ? 'Required: fill it in' : `Enter at least ${p.limit} characters`;
      case 'maxLength':
        return `Enter at most ${p.limit} characters`;
      case 'minItems':
        return `Add at least ${p.limit} item${p.limit === 1 ? '' : 's'}`;
      case 'maxItems':
        return `Keep to ${p.limit} items or fewer`;
      case 'type':
        return `Enter ${TYPE_WORDS[String(p.type)] ?? `a value of type ${p.type}`}`;
      case 'pattern':
        return `${label} has characters it cannot take`;
      case 'format':
        return `Enter ${FORMAT_WORDS[String(p.format)] ?? `a valid ${p.format}`}`;
      default:
        return e.message;
    }
  })();
  return { ...e, message, stack: `${label}: ${message}` };
}

const TYPE_WORDS: Record<string, string> = {
  object: 'a set of named values ({ … })',
  array: 'a list',
  string: 'some text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'yes or no',
};

const FORMAT_WORDS: Record<string, string> = { uri: 'a full URL (https://…)', email: 'an email address', uuid: 'an id (a UUID)' };

/** rjsf names a new map entry "newKey", "newKey-1": such names are not identifiers; "field", "field_2" are. */
export function renameNewKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(renameNewKeys);
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (!entries.some(([k]) => /^newKey(-\d+)?$/.test(k))) return Object.fromEntries(entries.map(([k, v]) => [k, renameNewKeys(v)]));
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    let key = k;
    if (/^newKey(-\d+)?$/.test(k)) {
      let n = 1;
      key = 'field';
      while (key in out || entries.some(([other]) => other === key)) key = `field_${++n}`;
    }
    out[key] = renameNewKeys(v);
  }
  return out;
}
