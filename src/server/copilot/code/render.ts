import { access, type Segment } from './fields';
import { helperSource, type Helper } from './helpers';
import type { ConversionPlan, Field } from './resolve';

/** What the generated body does, in the order it does it; every part already resolved to JavaScript. */
export interface Plan {
  /** JavaScript for the records (or the one record), and whether it is a single object. */
  records: { expr: string; single: boolean };
  /** Conditions a kept record meets (JavaScript on `r`), and whether matching records are dropped instead. */
  keep: { always: string[]; conditions: string[]; negate: boolean };
  dedupe: { key: Field | null } | null;
  sort: { field: Field; desc: boolean } | null;
  /** Counts or lists per value of a field; `total` counts the records. */
  group: { field: Field; count: boolean } | null;
  total: boolean;
  transform: Transform | null;
  helpers: Helper[];
}

export interface Transform {
  /** New objects of these fields; null: a copy of the record with `sets` applied. */
  project: { label: string; expr: (r: string) => string }[] | null;
  sets: { path: Segment[]; value: (r: string) => string; remove?: string }[];
  conversion: ConversionPlan | null;
  flatten: boolean;
}

/** `out.a = { ...r.a, b: value }` for a path of keys, or `out[label] = value` when it passes through a list. */
function setStatement(path: Segment[], value: string, r: string): string[] {
  const keys = path.filter((s): s is string => typeof s === 'string');
  if (keys.length !== path.length || keys.length === 0) return [`out[${JSON.stringify(keys.at(-1) ?? 'value')}] = ${value};`];
  const build = (i: number): string =>
    i === keys.length - 1
      ? value
      : `{ ...${access(r, keys.slice(0, i + 1))}, ${JSON.stringify(keys[i + 1]!).replace(/^"([A-Za-z_$][\w$]*)"$/, '$1')}: ${build(i + 1)} }`;
  return [`out${access('', [keys[0]!]).replace(/^\./, '.')} = ${build(0)};`];
}

function conversionLines(c: ConversionPlan, r: string, projected: boolean): string[] {
  if (!c.quantity)
    return projected
      ? []
      : [
          ...setStatement([c.label], c.value(r), r),
          ...(c.label !== (c.field.segments?.at(-1) ?? c.label) ? [`delete out[${JSON.stringify(c.field.segments?.at(-1))}];`] : []),
        ];
  const q = c.quantity;
  const parent = access(r, q.parent);
  const unit = `${parent}?.unit ?? ${parent}?.code ?? ''`;
  const update = `{ ...${parent}, value: ${c.value(r)}, unit: ${JSON.stringify(q.unit)}${q.hasCode ? `, code: ${JSON.stringify(q.code)}` : ''} }`;
  return [`if (${q.test}.test(String(${unit}))) {`, ...setStatement(q.parent, update, r).map((l) => `  ${l}`), '}'];
}

function transformLines(t: Transform): string[] {
  const lines = ['function transform(r) {'];
  if (t.project) {
    lines.push(
      '  const out = {',
      ...t.project.map((p) => `    ${/^[A-Za-z_$][\w$]*$/.test(p.label) ? p.label : JSON.stringify(p.label)}: ${p.expr('r')},`),
      '  };',
    );
    if (t.conversion?.quantity) lines.push(...conversionLines(t.conversion, 'r', true).map((l) => `  ${l}`));
  } else {
    lines.push('  const out = { ...r };');
    for (const s of t.sets) {
      lines.push(...setStatement(s.path, s.value('r'), 'r').map((l) => `  ${l}`));
      if (s.remove) lines.push(`  delete out[${JSON.stringify(s.remove)}];`);
    }
    if (t.conversion) lines.push(...conversionLines(t.conversion, 'r', false).map((l) => `  ${l}`));
  }
  lines.push(t.flatten ? '  return flatten(out);' : '  return out;', '}', '');
  return lines;
}

/** The function body for the code node. */
export function renderBody(plan: Plan): string {
  const helpers = new Set<Helper>(plan.helpers);
  if (plan.sort) helpers.add('compare');
  if (plan.transform?.flatten) helpers.add('flatten');
  if (plan.transform?.conversion) helpers.add('round');
  const lines = [...helperSource(helpers)];
  if (plan.transform) lines.push(...transformLines(plan.transform));
  const all = [
    ...plan.keep.always,
    ...(plan.keep.conditions.length ? [plan.keep.negate ? `!(${plan.keep.conditions.join(' && ')})` : plan.keep.conditions.join(' && ')] : []),
  ];
  if (plan.records.single) {
    lines.push('const r = input;');
    if (all.length) lines.push(`if (!(${all.join(' && ')})) return null;`);
    lines.push(plan.transform ? 'return transform(r);' : 'return r;');
    return lines.join('\n');
  }
  let current = 'records';
  lines.push(`const records = ${plan.records.expr};`);
  if (all.length) {
    lines.push(`const kept = records.filter((r) => ${all.join(' && ')});`);
    current = 'kept';
  }
  if (plan.dedupe) {
    const key = plan.dedupe.key ? plan.dedupe.key.expr('r') : 'r';
    lines.push(
      'const seen = new Set();',
      `const unique = ${current}.filter((r) => {`,
      `  const key = JSON.stringify(${key} ?? null);`,
      '  if (seen.has(key)) return false;',
      '  seen.add(key);',
      '  return true;',
      '});',
    );
    current = 'unique';
  }
  if (plan.sort) {
    const [a, b] = plan.sort.desc ? ['b', 'a'] : ['a', 'b'];
    lines.push(`const sorted = [...${current}].sort((a, b) => compare(${plan.sort.field.expr(a)}, ${plan.sort.field.expr(b)}));`);
    current = 'sorted';
  }
  if (plan.group) {
    const name = plan.group.count ? 'counts' : 'groups';
    lines.push(`const ${name} = {};`, `for (const r of ${current}) {`, `  const key = String(${plan.group.field.expr('r')} ?? 'unknown');`);
    lines.push(
      plan.group.count ? `  ${name}[key] = (${name}[key] ?? 0) + 1;` : `  (${name}[key] = ${name}[key] ?? []).push(${plan.transform ? 'transform(r)' : 'r'});`,
    );
    lines.push('}', `return ${name};`);
  } else if (plan.total) {
    lines.push(`return { count: ${current}.length };`);
  } else {
    lines.push(plan.transform ? `return ${current}.map(transform);` : `return ${current};`);
  }
  return lines.join('\n');
}
