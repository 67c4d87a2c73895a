import { typesOf } from './fhir-elements';
import { type FhirAction, type FhirRule, RESOURCE_TYPES } from './fhir-rules';

/**
 * A rule set compiled, once per process, into what each place of a resource gets: which data types and which
 * extensions are removed whole, which rule decides each field of a data type (`Address.line`), of a resource
 * and of its backbone elements (`Device.serialNumber`, `Claim.insurance.preAuthRef`), which resources hash every
 * string of their own, and which rules walk every value. Each rule keeps its place in the list, so that where
 * several reach one value the first decides, as when the rules run one after the other. Undefined when a rule is
 * not one of these shapes (any other FHIRPath): then the rules are interpreted.
 */
export interface PresetTable {
  /** Data types whose elements `descendants().ofType(T)` removes (with the types derived from them) */
  removedTypes: Set<string>;
  /** Elements `descendants().where(url = '…')` removes */
  removedUrls: Set<string>;
  /** Per data type, per field: the first rule reaching that field of an element of the type */
  byType: Map<string, FieldRules>;
  /** Per resource type (`*` for every one): the fields of the resource, and of elements along paths from it */
  roots: Map<string, Trie>;
  /** Resource types whose strings of their own a rule hashes (`Patient`), with that rule's place */
  ownStrings: Map<string, number>;
  /** Rules over every value of the resource (`$this`) */
  walks: { rule: number; action: 'date-shift' | 'scrub' }[];
}

export interface FieldRule {
  rule: number;
  action: FhirAction;
}
export type FieldRules = Map<string, FieldRule>;
export interface Trie {
  fields: FieldRules;
  children: Map<string, Trie>;
}

const compiled = new WeakMap<readonly FhirRule[], PresetTable | null>();

/** The table of a rule set, compiled the first time it is asked for (undefined: it must be interpreted). */
export function presetTable(rules: readonly FhirRule[]): PresetTable | undefined {
  let table = compiled.get(rules);
  if (table === undefined) compiled.set(rules, (table = compile(rules) ?? null));
  return table ?? undefined;
}

const OF_TYPE = /^descendants\(\)\.ofType\(([A-Z][A-Za-z]*)\)$/;
const OF_TYPE_FIELD = /^descendants\(\)\.ofType\(([A-Z][A-Za-z]*)\)\.(`?)([a-z][A-Za-z0-9_]*)\2$/;
const WHERE_URL = /^descendants\(\)\.where\(url = '([^'\\]*)'\)$/;
const FROM_RESOURCE = /^([A-Z][A-Za-z]+)((?:\.[a-z][A-Za-z0-9_]*)+)$/;
const FIELD = /^[a-z][A-Za-z0-9_]*$/;

function compile(rules: readonly FhirRule[]): PresetTable | undefined {
  const table: PresetTable = { removedTypes: new Set(), removedUrls: new Set(), byType: new Map(), roots: new Map(), ownStrings: new Map(), walks: [] };
  const add = (fields: FieldRules, field: string, rule: FieldRule) => void (fields.has(field) || fields.set(field, rule));
  for (const [rule, { path, action }] of rules.entries()) {
    let m: RegExpExecArray | null;
    if (path === '$this') {
      if (action !== 'date-shift' && action !== 'scrub') return undefined;
      table.walks.push({ rule, action });
    } else if ((m = OF_TYPE.exec(path))) {
      const types = typesOf(m[1]!);
      if (!types || action !== 'redact') return undefined;
      for (const t of types) table.removedTypes.add(t);
    } else if ((m = OF_TYPE_FIELD.exec(path))) {
      const types = typesOf(m[1]!);
      if (!types) return undefined;
      for (const t of types) add(table.byType.get(t) ?? table.byType.set(t, new Map()).get(t)!, m[3]!, { rule, action });
    } else if ((m = WHERE_URL.exec(path))) {
      if (action !== 'redact') return undefined;
      table.removedUrls.add(m[1]!);
    } else if (RESOURCE_TYPES.has(path)) {
      if (action !== 'hash' || path === 'Resource' || path === 'DomainResource') return undefined;
      if (!table.ownStrings.has(path)) table.ownStrings.set(path, rule);
    } else if (FIELD.test(path) || ((m = FROM_RESOURCE.exec(path)) && RESOURCE_TYPES.has(m[1]!) && m[1] !== 'Resource' && m[1] !== 'DomainResource')) {
      const steps = m ? m[2]!.slice(1).split('.') : [path];
      let trie = table.roots.get(m ? m[1]! : '*') ?? table.roots.set(m ? m[1]! : '*', { fields: new Map(), children: new Map() }).get(m ? m[1]! : '*')!;
      for (const s of steps.slice(0, -1)) trie = trie.children.get(s) ?? trie.children.set(s, { fields: new Map(), children: new Map() }).get(s)!;
      add(trie.fields, steps[steps.length - 1]!, { rule, action });
    } else return undefined;
  }
  return table;
}

/**
 * The first rule of `rules` reaching field `key` of `obj`: the field itself, or, when the object has no field of
 * the rule's name, a choice field starting with it (`deceased` reaches `deceasedDateTime`).
 */
export function fieldRule(rules: FieldRules | undefined, obj: Record<string, unknown>, key: string): FieldRule | undefined {
  if (rules === undefined) return undefined;
  const { exact, choices } = byKey(rules, key);
  let found = exact;
  // a field left undefined is not there (a JSON copy leaves it out)
  for (const [field, rule] of choices) if (obj[field] === undefined && (!found || rule.rule < found.rule)) found = rule;
  return found;
}

/** Per rule map and field name: its own rule, and the rules of fields it is a choice of (kept: the same names recur). */
const keyed = new WeakMap<FieldRules, Map<string, { exact: FieldRule | undefined; choices: [string, FieldRule][] }>>();

function byKey(rules: FieldRules, key: string): { exact: FieldRule | undefined; choices: [string, FieldRule][] } {
  let known = keyed.get(rules);
  if (!known) keyed.set(rules, (known = new Map()));
  let k = known.get(key);
  if (!k) {
    const choices = [...rules].filter(([field]) => key.length > field.length && key.startsWith(field) && isUpper(key.charCodeAt(field.length)));
    if (known.size > 10_000) known.clear();
    known.set(key, (k = { exact: rules.get(key), choices }));
  }
  return k;
}

const isUpper = (c: number) => c >= 65 && c <= 90;

/** The first of two rules (either may be missing). */
export function first(a: FieldRule | undefined, b: FieldRule | undefined): FieldRule | undefined {
  return !a ? b : !b ? a : a.rule <= b.rule ? a : b;
}
