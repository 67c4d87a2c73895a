import { locateRecords, normalizePhrase, pathText, type Records } from './fields';
import { readRequest, type Intents } from './read-request';
import { renderBody, type Plan, type Transform } from './render';
import { conditionJs, isRecordNoun, planConversion, Resolver, type Field } from './resolve';

/**
 * The offline generator of code-node bodies (POST /api/copilot/generate/code): reads the request for the
 * operations clinical engineers write code nodes for — keep records by a condition, drop duplicates, sort,
 * count or group, pick/rename/compute fields (age, a HumanName as text, BMI), convert units, format dates,
 * flatten — and addresses the sample's real field paths. Pure and deterministic; the service checks what it makes.
 */

export interface GeneratedCode {
  source: string;
  explanation: string;
  steps: string[];
  /** The request's words and the sample paths they were read as. */
  fields: { asked: string; path: string }[];
  warnings: string[];
}

export const EXAMPLE_REQUESTS = [
  "list each patient's name and age",
  'keep only observations with a value above 100',
  'count patients by gender',
  'convert glucose values from mg/dL to mmol/L',
  'format birthDate as DD/MM/YYYY',
  'remove duplicates by identifier and sort by birth date, newest first',
  'compute BMI from weight in lb and height in cm',
  'flatten the object',
];

/** The request could not be read as any operation: what was read, and requests that work. */
export class RequestNotUnderstood extends Error {
  constructor(
    message: string,
    readonly understood: string[],
  ) {
    super(message);
  }
}

const CMP_TEXT: Record<string, string> = {
  '>': 'is above',
  '>=': 'is at least',
  '<': 'is below',
  '<=': 'is at most',
  '===': 'is',
  '!==': 'is not',
  missing: 'is missing',
  present: 'is present',
};

function readFilters(intents: Intents, res: Resolver, steps: string[]): string[] {
  const out: string[] = [];
  for (const f of intents.filters) {
    const want = f.date ? 'date' : typeof f.value === 'number' ? 'number' : undefined;
    let field = f.phrase ? res.field(f.phrase, want) : null;
    if (!field && (f.cmp === 'present' || f.cmp === 'missing')) {
      if (f.cmp === 'missing' && f.phrase) res.warnings.push(`No field matches "${f.phrase}" in the sample: that condition was left out.`);
      continue;
    }
    // "observations above 100", "encounters after 2020-01-01": the records' own number or date; a field the sample lacks is not guessed
    const unnamed = !f.phrase || namesRecords(f.phrase);
    if (!field && unnamed && want === 'number') field = res.valueField(f.phrase, intents.types.includes('Observation'));
    if (!field && unnamed && want === 'date') field = res.dateField(f.phrase);
    if (!field) {
      res.warnings.push(`No field matches "${f.phrase || f.text}" in the sample: the condition "${f.text}" was left out.`);
      continue;
    }
    out.push(conditionJs(field, f.cmp, f.value, f.date, 'r'));
    if (f.date) field.helpers.push('toDate');
    res.use(...field.helpers);
    const says = f.date ? ({ '<': 'is before', '<=': 'is on or before', '>': 'is after', '>=': 'is on or after' } as Record<string, string>)[f.cmp] : undefined;
    steps.push(
      [
        `${intents.negate ? 'Drops' : 'Keeps'} records whose ${field.path ?? field.label}`,
        `${says ?? CMP_TEXT[f.cmp]}${f.value === null ? '' : ` ${typeof f.value === 'string' ? JSON.stringify(f.value) : f.value}`}.`,
      ].join(' '),
    );
  }
  return out;
}

/**
 * Conditions read from the sample's values: "female patients" (a word that is a value of gender), "with status
 * active" (a field and one of its values), "who are deceased" (a field, present). The phrases they came from are
 * taken out of the fields to pick.
 */
/** FHIR elements that hold a code (`status`, `gender`, `class.code`…). */
const CODED = /^(status|gender|code|use|type|intent|priority|category|class|mode|kind)$/;

function readValueConditions(intents: Intents, res: Resolver, steps: string[]): string[] {
  const out: string[] = [];
  const keep = (c: string, text: string) => {
    out.push(c);
    steps.push(`${intents.negate ? 'Drops' : 'Keeps'} records ${text}.`);
  };
  for (const pair of intents.pairs) {
    const f = res.field(pair.phrase);
    // the value is one the sample has there, or the field holds codes (status, gender…) and the sample just lacks this one
    const at = f?.segments && res.paths.find((p) => pathText(p.path) === pathText(f.segments!));
    const known =
      at && (at.values.has(pair.value.toLowerCase()) || (at.kind === 'string' && CODED.test(String(at.path.at(-1))) && /^[A-Za-z][\w-]*$/.test(pair.value)));
    if (!f || !known) continue;
    res.use(...f.helpers);
    keep(conditionJs(f, '===', pair.value, false, 'r'), `whose ${f.path} is ${JSON.stringify(pair.value.toLowerCase())}`);
  }
  for (const st of intents.states) {
    const f = res.field(st.word);
    if (f && f.segments) {
      keep(conditionJs(f, st.not ? 'missing' : 'present', null, false, 'r'), `whose ${f.path} is ${st.not ? 'missing' : 'present'}`);
      continue;
    }
    const v = res.valueMatch(st.word);
    if (v)
      keep(conditionJs(v.field, st.not ? '!==' : '===', v.value, false, 'r'), `whose ${v.field.path} is ${st.not ? 'not ' : ''}${JSON.stringify(v.value)}`);
  }
  // "keep only female patients": a phrase naming no field, with a word that is a value in the sample
  intents.project = intents.project.filter((phrase) => {
    if (res.field(phrase)) return true;
    const hits = normalizePhrase(phrase)
      .map((w) => res.valueMatch(w))
      .filter((v) => v !== null);
    for (const v of hits) keep(conditionJs(v.field, '===', v.value, false, 'r'), `whose ${v.field.path} is ${JSON.stringify(v.value)}`);
    return hits.length === 0;
  });
  return out;
}

function namesRecords(phrase: string): boolean {
  const words = normalizePhrase(phrase);
  return words.every((w) => isRecordNoun(w) || /^(them|it|everything|out|list|data|result|one|ones|request|order|statement|report)$/.test(w));
}

function describeField(f: Field): string {
  return f.label === f.path || !f.path
    ? f.label
    : `${f.label} (${f.kind === 'computed' ? `from ${f.path}` : f.kind === 'human-name' ? `${f.path} as text` : f.path})`;
}

function readTransform(intents: Intents, res: Resolver, steps: string[]): Transform | null {
  // counts have no fields to pick; nor have plain values (a list of numbers)
  const counting = intents.count || intents.group?.count || res.records.scalar;
  const pick = counting ? [] : intents.project;
  const fields = (phrases: string[]) =>
    phrases.flatMap((p) => {
      const f = res.field(p, undefined, 'show');
      // a short phrase that names no field and not the records either ("patients", "them") is reported
      if (!f && p.split(/\s+/).length <= 3 && !/\d/.test(p) && res.hasSample && !namesRecords(p))
        res.warnings.push(`No field matches "${p}" in the sample: it was left out.`);
      return f ? [f] : [];
    });
  const picked = fields(pick);
  const added = counting ? [] : fields(intents.add);
  const project: Field[] | null = picked.length ? [...picked, ...added] : null;
  const sets: Transform['sets'] = [];
  // added to a copy of the record: a HumanName as text beside the structured one, not over it
  for (const f of added) if (f.kind === 'human-name' && f.label === f.segments?.[0]) f.label = 'fullName';
  if (!project) for (const f of added) sets.push({ path: [f.label], value: f.expr });
  const wraps = new Map<string, (inner: (r: string) => string) => (r: string) => string>();
  const extra: Field[] = [];

  if (intents.formatDate && !counting) {
    const { pattern } = intents.formatDate;
    const generic = intents.formatDate.phrases.every((p) => /^(all |the )*(dates?|timestamps?|date fields?|times?)$/i.test(p));
    const targets = generic ? res.dateFields() : intents.formatDate.phrases.map((p) => res.field(p, 'date')).filter((f): f is Field => f !== null);
    if (!targets.length)
      res.warnings.push(
        res.hasSample ? 'No date field found in the sample to format.' : 'No sample: name the date field to format (e.g. "format birthDate as DD/MM/YYYY").',
      );
    for (const t of targets) {
      res.use('formatDate');
      if (project) {
        wraps.set(t.path ?? t.label, (inner) => (r) => `formatDate(${inner(r)}, ${JSON.stringify(pattern)})`);
        if (!project.some((p) => p.path === t.path)) extra.push(t);
      } else if (t.segments) sets.push({ path: t.segments, value: (r) => `formatDate(${t.expr(r)}, ${JSON.stringify(pattern)})` });
      steps.push(`Writes ${t.path ?? t.label} as ${pattern === 'ISO' ? 'an ISO 8601 timestamp' : pattern}.`);
    }
  }

  for (const rn of counting ? [] : intents.renames) {
    const f = res.field(rn.phrase);
    if (!f) {
      res.warnings.push(`No field matches "${rn.phrase}" in the sample: it was not renamed.`);
      continue;
    }
    steps.push(`Renames ${f.path ?? f.label} to ${rn.to}.`);
    if (project) {
      const at = project.find((p) => p.path === f.path);
      if (at) at.label = rn.to;
      else extra.push({ ...f, label: rn.to });
    } else sets.push({ path: [rn.to], value: f.expr, remove: f.segments?.length === 1 ? String(f.segments[0]) : undefined });
  }

  let conversion: Transform['conversion'] = null;
  if (intents.convert && !counting) {
    const c = planConversion(res, intents.convert, intents.types.includes('Observation') || /\bfhir\b/i.test(intents.project.join(' ')));
    if (!c) res.warnings.push(`No number in the sample to convert from ${intents.convert.from.label} to ${intents.convert.to.label}.`);
    else {
      res.use(...c.field.helpers);
      steps.push(
        [
          `Converts ${c.field.path ?? c.field.label} from ${c.conversion.from.label} to ${c.conversion.to.label}`,
          `(${c.conversion.js.replace(/\bv\b/g, 'x')}, ${c.conversion.digits}`,
          `decimal${c.conversion.digits === 1 ? '' : 's'})${c.quantity ? `, where its unit is ${c.conversion.from.label}` : ''}.`,
        ].join(' '),
      );
      if (project) {
        const q = c.quantity;
        const unitPath = q ? pathText([...q.parent, 'unit']) : null;
        const test = (r: string) =>
          q
            ? [
                `${q.test}.test(String(${c.field.expr(r).replace(/\?\.value$|\.value$/, '')}?.unit`,
                `?? ${c.field.expr(r).replace(/\?\.value$|\.value$/, '')}?.code ?? ''))`,
              ].join(' ')
            : 'true';
        wraps.set(c.field.path!, () => (r) => (q ? `(${test(r)} ? ${c.value(r)} : ${c.field.expr(r)})` : c.value(r)));
        if (unitPath) wraps.set(unitPath, (inner) => (r) => `(${test(r)} ? ${JSON.stringify(q!.unit)} : ${inner(r)})`);
        const at = project.find((p) => p.path === c.field.path);
        if (at) at.label = c.label;
        else extra.push({ ...c.field, label: c.label });
      } else conversion = c;
    }
  }

  if (intents.flatten) steps.push('Flattens nested objects and lists into dotted keys (name.0.family).');
  const projected = project ? [...project, ...extra] : null;
  if (projected) {
    for (const f of projected) res.use(...f.helpers);
    steps.push(`Returns for each record: ${projected.map(describeField).join(', ')}.`);
  }
  for (const f of added)
    if (!project) {
      res.use(...f.helpers);
      steps.push(`Adds ${describeField(f)}.`);
    }
  if (!projected && !sets.length && !conversion && !intents.flatten) return null;
  const seenLabels = new Set<string>();
  return {
    project: projected
      ? projected
          .filter((f) => !seenLabels.has(f.label) && seenLabels.add(f.label))
          .map((f) => ({ label: f.label, expr: wraps.get(f.path ?? f.label)?.(f.expr) ?? f.expr }))
      : null,
    sets,
    conversion,
    flatten: intents.flatten,
  };
}

function typeFilter(intents: Intents, records: Records, description: string): string[] {
  const present = new Set(records.items.map((i) => i.resourceType).filter((t): t is string => typeof t === 'string'));
  if (records.kind === 'single') return [];
  if (records.items.length) return present.size > 1 ? intents.types.filter((t) => present.has(t)) : [];
  return intents.types.length === 1 && /\b(bundle|entries)\b/i.test(description) ? intents.types : [];
}

/** A code-node body for `description`, addressing `sample`'s fields when one is given. */
export function generateCode(description: string, sample?: unknown): GeneratedCode {
  const intents = readRequest(description);
  const collection = Boolean(
    intents.filters.length || intents.pairs.length || intents.states.length || intents.sort || intents.dedupe || intents.group || intents.count,
  );
  const located = locateRecords(sample, collection || (sample === undefined && intents.plural));
  const types = typeFilter(intents, located, description);
  const records = types.length ? { ...located, items: located.items.filter((i) => types.includes(String(i.resourceType))) } : located;
  const res = new Resolver(records, intents.types.includes('Observation'));
  const steps = [`Reads ${records.label}.`];
  const always = types.length
    ? [types.length === 1 ? `r.resourceType === ${JSON.stringify(types[0])}` : `${JSON.stringify(types)}.includes(r.resourceType)`]
    : [];
  if (types.length) steps.push(`Keeps the ${types.join(' and ')} resources.`);
  const conditions = [...readFilters(intents, res, steps), ...readValueConditions(intents, res, steps)];

  const single = records.kind === 'single';
  const dedupeKey = intents.dedupe?.phrase ? res.field(intents.dedupe.phrase) : null;
  if (intents.dedupe?.phrase && !dedupeKey)
    res.warnings.push(`No field matches "${intents.dedupe.phrase}" in the sample: duplicates are whole records that are equal.`);
  const dedupe = intents.dedupe && !single ? { key: dedupeKey } : null;
  if (dedupe) steps.push(`Drops duplicates${dedupeKey ? ` by ${dedupeKey.path ?? dedupeKey.label}` : ' (records equal as a whole)'}, keeping the first.`);
  const sortField = intents.sort && !single ? res.field(intents.sort.phrase) : null;
  if (intents.sort && !sortField && !single)
    res.warnings.push(
      intents.sort.phrase
        ? `No field matches "${intents.sort.phrase}" in the sample: the records were not sorted.`
        : 'Name the field to sort by ("sort by birth date"): the records were not sorted.',
    );
  const sort = sortField ? { field: sortField, desc: intents.sort!.desc } : null;
  if (sort)
    steps.push(`Sorts by ${describeField(sort.field)}, ${sort.desc ? 'highest (or latest) first' : 'lowest (or earliest) first'}; records without it last.`);
  const groupField = intents.group && !single ? res.field(intents.group.phrase) : null;
  if (intents.group && !groupField) res.warnings.push(`No field matches "${intents.group.phrase}" in the sample: nothing was grouped.`);
  const group = groupField ? { field: groupField, count: intents.group!.count } : null;
  const total = !group && intents.count && !single;
  for (const f of [dedupeKey, sortField, groupField]) if (f) res.use(...f.helpers);

  const transform = readTransform({ ...intents, count: total }, res, steps);
  if (group)
    steps.push(
      group.count
        ? `Counts the records per ${describeField(group.field)} (missing: "unknown").`
        : `Groups the records by ${describeField(group.field)} (missing: "unknown").`,
    );
  if (total) steps.push('Counts the records.');

  const unwraps = (records.kind === 'bundle' || records.kind === 'property') && /\b(resources?|entries|unwrap|items|list)\b/i.test(description);
  const did = always.length || conditions.length || dedupe || sort || group || total || transform || unwraps;
  if (!did) {
    const read = [...steps.slice(1), ...res.warnings];
    throw new RequestNotUnderstood(
      `The request "${description}" could not be read as an operation on ${records.label}${read.length ? ` (${read.join(' ')})` : ''}.`,
      read,
    );
  }
  if (!transform && !group && !total) steps.push(single ? 'Returns the record.' : 'Returns the records.');

  const plan: Plan = {
    records: { expr: records.expr, single },
    keep: { always, conditions, negate: intents.negate },
    dedupe,
    sort,
    group,
    total,
    transform,
    helpers: [...res.helpers],
  };
  return { source: renderBody(plan), explanation: steps.join(' '), steps, fields: res.fields, warnings: res.warnings };
}
