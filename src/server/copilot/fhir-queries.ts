import { isSearchParameter } from '@/clinical/fhir/search-params';
import { CONDITION_CODES, DATE_PARAM, ENCOUNTER_CLASS, OBSERVATION_CODES, RESOURCE_WORDS } from './fhir-terms';

export interface FhirQueryPlan {
  /** Request lines, e.g. `GET /Patient?family=smith&birthdate=ge1980-01-01`. */
  queries: string[];
  /** What was read from the request, in words. */
  reasoning: string[];
}

type Params = Array<[string, string]>;

const day = (d: Date) => d.toISOString().slice(0, 10);
const UNITS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };

/** "in the last 30 days", "since 2024-01-01", "in 2023", "after March 2024"… as [prefix, date] pairs. */
function dateRange(text: string, now: Date): Array<[string, string]> {
  const last = /\b(?:in the |over the |during the )?(?:last|past)\s+(\d+)?\s*(day|week|month|year)s?\b/.exec(text);
  if (last) return [['ge', day(new Date(now.getTime() - Number(last[1] ?? 1) * UNITS[last[2]!]! * 86_400_000))]];
  const since = /\b(?:since|after|from)\s+(\d{4}-\d{2}-\d{2}|\d{4})\b/.exec(text);
  const until = /\b(?:before|until|up to)\s+(\d{4}-\d{2}-\d{2}|\d{4})\b/.exec(text);
  const out: Array<[string, string]> = [];
  if (since) out.push(['ge', since[1]!.length === 4 ? `${since[1]}-01-01` : since[1]!]);
  if (until) out.push(['lt', until[1]!.length === 4 ? `${until[1]}-01-01` : until[1]!]);
  if (out.length) return out;
  const year = /\bin\s+(\d{4})\b/.exec(text);
  return year
    ? [
        ['ge', `${year[1]}-01-01`],
        ['lt', `${Number(year[1]) + 1}-01-01`],
      ]
    : [];
}

function patientParams(text: string, raw: string, now: Date, why: string[]): Params {
  const p: Params = [];
  const family = /\b(?:named|surname|family name|last name|called)\s+([A-Z][\w'-]+)/i.exec(raw)?.[1];
  if (family) p.push(['family', family.toLowerCase()]) && why.push(`family name "${family}"`);
  const given = /\b(?:first name|given name)\s+([A-Z][\w'-]+)/i.exec(raw)?.[1];
  if (given) p.push(['given', given.toLowerCase()]);
  if (/\b(women|female|females|girls?)\b/.test(text)) p.push(['gender', 'female']);
  else if (/\b(men|male|males|boys?)\b/.test(text)) p.push(['gender', 'male']);
  const born = /\bborn\s+(after|since|before|in)\s+(\d{4})\b/.exec(text);
  if (born) p.push(['birthdate', born[1] === 'before' ? `lt${born[2]}-01-01` : born[1] === 'in' ? born[2]! : `ge${born[2]}-01-01`]);
  const older = /\b(?:over|older than|aged over|above)\s+(\d{1,3})\b/.exec(text);
  if (older && !born)
    p.push(['birthdate', `le${Number(now.getUTCFullYear()) - Number(older[1])}${day(now).slice(4)}`]) &&
      why.push(`older than ${older[1]}: born on or before that day`);
  const younger = /\b(?:under|younger than|below)\s+(\d{1,3})\b/.exec(text);
  if (younger && !born) p.push(['birthdate', `gt${Number(now.getUTCFullYear()) - Number(younger[1])}${day(now).slice(4)}`]);
  const mrn = /\b(?:mrn|medical record number|identifier)\s*#?:?\s*([A-Za-z0-9-]{3,})\b/i.exec(raw)?.[1];
  if (mrn) p.push(['identifier', mrn]);
  return p;
}

function encode(v: string): string {
  // `|`, `:` and `/` may stand in a query; kept as they are, system URLs stay readable
  return encodeURIComponent(v).replace(/%7C/gi, '|').replace(/%3A/gi, ':').replace(/%2F/gi, '/');
}

function line(type: string, params: Params, why: string[]): string {
  const kept = params.filter(([k]) => {
    const ok = isSearchParameter(type, k);
    if (!ok) why.push(`dropped "${k}": not an R4 search parameter of ${type}`);
    return ok;
  });
  return `GET /${type}${kept.length ? `?${kept.map(([k, v]) => `${k}=${encode(v)}`).join('&')}` : ''}`;
}

/**
 * The FHIR R4 searches a plain-language request asks for (offline, rule-based): the resource types it names,
 * patients by name, gender, age, birth date or identifier, conditions and observations by their SNOMED CT and
 * LOINC codes, thresholds, date ranges, encounter classes, "latest" and counts. Every parameter is checked
 * against the R4 search parameters of its type.
 */
export function planFhirQueries(description: string, now = new Date()): FhirQueryPlan {
  const text = description.toLowerCase();
  const why: string[] = [];
  const types = RESOURCE_WORDS.filter(([re]) => re.test(text)).map(([, t]) => t);
  const condition = CONDITION_CODES.find(([re]) => re.test(text));
  const observation = OBSERVATION_CODES.find(([re]) => re.test(text));
  if (condition && !types.includes('Condition')) types.push('Condition');
  if (observation && !types.includes('Observation')) types.push('Observation');
  if (!types.length)
    return { queries: [], reasoning: ['No FHIR resource recognised: name what to find (patients, observations, conditions, medications, encounters…).'] };
  why.push(`resource types: ${types.join(', ')}`);
  const patientId = /\bpatient(?:\/|\s+id\s*|\s+)([A-Za-z0-9-]*\d[A-Za-z0-9-]*)\b/i.exec(description)?.[1];
  // "the medications of patient 123": the patient is the subject, not something to find
  if (patientId && types.length > 1 && types.includes('Patient')) types.splice(types.indexOf('Patient'), 1);
  const dates = dateRange(text, now);
  const latest = /\b(latest|most recent|last)\b/.test(text) && !/\b(last|past)\s+\d*\s*(day|week|month|year)/.test(text);
  const count = /\b(?:first|top|up to|at most)\s+(\d{1,4})\b/.exec(text)?.[1];
  const queries: string[] = [];

  // "patients with diabetes": patients that have such a condition (reverse chaining)
  if (types.includes('Patient') && condition && /\b(with|who have|having|diagnosed)\b/.test(text)) {
    const p = patientParams(text, description, now, why);
    why.push(`patients that have a Condition coded ${condition[2]} (${condition[1]}), by _has`);
    queries.push(line('Patient', [...p, ['_has:Condition:patient:code', condition[1]]], why));
    types.splice(types.indexOf('Condition'), 1);
    types.splice(types.indexOf('Patient'), 1);
  }

  for (const type of types) {
    const p: Params = [];
    if (type === 'Patient') {
      if (patientId) {
        queries.push(`GET /Patient/${patientId}`);
        continue;
      }
      p.push(...patientParams(text, description, now, why));
    } else if (patientId) p.push(['patient', patientId]);
    if (type === 'Condition' && condition) p.push(['code', condition[1]]) && why.push(`condition ${condition[2]}: SNOMED CT ${condition[1].split('|')[1]}`);
    if (type === 'Condition' && /\b(active|current|ongoing)\b/.test(text)) p.push(['clinical-status', 'active']);
    if (type === 'Observation') {
      if (observation) p.push(['code', observation[1]]) && why.push(`observation ${observation[2]}: LOINC ${observation[1].split('|')[1]}`);
      else if (/\bvital/.test(text)) p.push(['category', 'vital-signs']);
      else if (/\blab/.test(text)) p.push(['category', 'laboratory']);
      const threshold = /\b(above|over|greater than|more than|>|below|under|less than|<)\s*(\d+(?:\.\d+)?)/.exec(text);
      if (observation && threshold) p.push(['value-quantity', `${/above|over|greater|more|>/.test(threshold[1]!) ? 'gt' : 'lt'}${threshold[2]}`]);
    }
    if (type === 'MedicationRequest' && /\b(active|current)\b/.test(text)) p.push(['status', 'active']);
    if (type === 'Encounter') {
      const cls = ENCOUNTER_CLASS.find(([re]) => re.test(text));
      if (cls) p.push(['class', `http://terminology.hl7.org/CodeSystem/v3-ActCode|${cls[1]}`]);
    }
    const dateParam = DATE_PARAM[type];
    if (dateParam) for (const [prefix, d] of dates) p.push([dateParam, `${prefix}${d}`]);
    if (dateParam && latest) p.push(['_sort', `-${dateParam === 'onset-date' ? 'onset-date' : dateParam}`], ['_count', '1']);
    else if (count) p.push(['_count', count]);
    queries.push(line(type, p, why));
  }
  return { queries, reasoning: why };
}
