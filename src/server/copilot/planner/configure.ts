import { US_CORE_PROFILE_URLS } from '@/clinical/fhir/us-core';
import type { Flow } from './flow';
import { predicate, switchCases } from './predicate';
import type { Request } from './read';

export interface Connector {
  name: string;
  type: string;
}

/** What configuring one node needs: the request, the connectors, and what was already taken. */
export interface ConfigContext {
  req: Request;
  connectors: Connector[];
  /** Connector names given to nodes so far, so a second FHIR node gets another one when there are several. */
  used: Set<string>;
}

export interface Configured {
  config: Record<string, unknown>;
  /** Facts the planner read into the config, for the reasoning. */
  filled: string[];
  /** What it could not fill. */
  missing: string[];
}

/** The connector type each node that uses one takes (the edit planner picks connectors by it too). */
export const CONNECTOR_TYPE: Record<string, string> = {
  'fhir-query': 'fhir',
  'fhir-write': 'fhir',
  'fhir-bulk-export': 'fhir',
  'hl7v2-mllp-send': 'hl7-mllp',
  'http-request': 'http',
  'postgres-query': 'postgres',
  'postgres-write': 'postgres',
};

const SOURCES = new Set(['fhir-query', 'fhir-bulk-export', 'postgres-query']);

/**
 * A connector for a node: one named in the request (quoted, or its name written out), else the only one of
 * its type; with several, readers take the first the request names and writers the last. Null when the
 * options give none of that type.
 */
function pickConnector(type: string, ctx: ConfigContext): string | null {
  const kind = CONNECTOR_TYPE[type]!;
  const ofType = ctx.connectors.filter((c) => c.type === kind);
  const quoted = ctx.req.quoted.filter((q) => !ofType.some((c) => c.name.toLowerCase() === q.toLowerCase()));
  if (ofType.length === 0) {
    const named = quoted.find((q) => !ctx.used.has(q) && new RegExp(`${kind === 'hl7-mllp' ? 'mllp|lis|system|interface' : kind}|server|ehr|warehouse|endpoint|database|api|connector`, 'i').test(ctx.req.text.slice(ctx.req.text.indexOf(q) - 40, ctx.req.text.indexOf(q) + q.length + 40)));
    return named ?? null;
  }
  const mentioned = ofType
    .map((c) => ({ c, at: ctx.req.lower.indexOf(c.name.toLowerCase()) }))
    .filter((m) => m.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((m) => m.c.name);
  const free = (names: string[]) => names.filter((n) => !ctx.used.has(n));
  const reading = SOURCES.has(type);
  const pool = mentioned.length ? mentioned : ofType.map((c) => c.name);
  const choice = reading ? (free(pool)[0] ?? pool[0]) : (free(pool).at(-1) ?? pool.at(-1));
  return choice ?? null;
}

const FHIRPATHS: Record<string, [string, string]> = {
  mrn: ['mrn', "identifier.where(type.coding.code = 'MR').value"],
  identifier: ['identifier', 'identifier.value'],
  name: ['name', "name.given.first() & ' ' & name.family"],
  'family name': ['family', 'name.family'],
  'last name': ['family', 'name.family'],
  'given name': ['given', 'name.given.first()'],
  'first name': ['given', 'name.given.first()'],
  'birth date': ['birthDate', 'birthDate'],
  birthdate: ['birthDate', 'birthDate'],
  'date of birth': ['birthDate', 'birthDate'],
  dob: ['birthDate', 'birthDate'],
  gender: ['gender', 'gender'],
  sex: ['gender', 'gender'],
  address: ['address', 'address.line.first()'],
  zip: ['postalCode', 'address.postalCode'],
  'postal code': ['postalCode', 'address.postalCode'],
  phone: ['phone', "telecom.where(system = 'phone').value"],
  email: ['email', "telecom.where(system = 'email').value"],
  status: ['status', 'status'],
  code: ['code', 'code.coding.code'],
  onset: ['onset', 'onsetDateTime'],
};

/** HL7 v2 fields by the words a request names them with, as JSONata on a parsed message. */
const HL7_FIELDS: Record<string, [string, string]> = {
  mrn: ['mrn', '$hl7($, "PID-3.1")'],
  'patient id': ['mrn', '$hl7($, "PID-3.1")'],
  name: ['name', '$hl7($, "PID-5.2") & " " & $hl7($, "PID-5.1")'],
  'birth ?date': ['birth_date', '$hl7($, "PID-7")'],
  dob: ['birth_date', '$hl7($, "PID-7")'],
  gender: ['gender', '$hl7($, "PID-8")'],
  sex: ['gender', '$hl7($, "PID-8")'],
  'message type': ['message_type', 'message_type'],
  visit: ['visit', '$hl7($, "PV1-19")'],
  'obx|results?|values?|observations?': ['results', '$hl7all($, "OBX-5")'],
};

const DIGITS = (re: RegExp, text: string) => {
  const m = text.match(re);
  return m ? Number(m[1]) : undefined;
};

/** A node's config: what fits the flow (from its behavior), then what the request says. Defaults stay implicit. */
export function configure(type: string, base: Record<string, unknown>, flow: Flow, ctx: ConfigContext): Configured {
  const { req } = ctx;
  const config: Record<string, unknown> = { ...base };
  const filled: string[] = [];
  const missing: string[] = [];
  const connectorType = CONNECTOR_TYPE[type];
  if (connectorType && type !== 'http-request') {
    const name = pickConnector(type, ctx);
    if (name) {
      config.connector = name;
      ctx.used.add(name);
      filled.push(`connector "${name}"`);
    } else missing.push(`connector: no ${connectorType} connector was given; pick one on the Connectors page`);
  }
  const types = req.resourceTypes;
  switch (type) {
    case 'schedule-trigger': {
      const s = req.trigger.schedule!;
      config.cron = s.cron;
      if (s.timezone) config.timezone = s.timezone;
      filled.push(`cron ${s.cron}${s.timezone ? ` (${s.timezone})` : ''}`);
      break;
    }
    case 'mllp-listener-trigger':
      if (req.trigger.port) {
        config.port = req.trigger.port;
        filled.push(`port ${req.trigger.port}`);
      }
      break;
    case 'fhir-query': {
      const type0 = types.find((t) => !['Practitioner', 'Organization'].includes(t)) ?? types[0] ?? 'Patient';
      const params: string[] = [];
      if (type0 === 'Observation' && /\blab/.test(req.lower)) params.push('category=laboratory');
      if (type0 === 'Observation' && /\bvital/.test(req.lower)) params.push('category=vital-signs');
      if (/\bfinal\b/.test(req.lower) && ['Observation', 'DiagnosticReport'].includes(type0)) params.push('status=final');
      if (/\bactive\b/.test(req.lower) && type0 === 'Condition') params.push('clinical-status=active');
      if (/\bby (mrn|medical record number|identifier)\b|\bwith (the |an |a )?(mrn|identifier)\b/.test(req.lower) && type0 === 'Patient') {
        params.push('identifier={{mrn}}');
        filled.push('the MRN from the execution inputs ({{mrn}})');
      }
      const family = req.text.match(/\bfamily (?:name )?["']?([A-Z][a-z]+)/);
      if (family && type0 === 'Patient') params.push(`family=${family[1]!.toLowerCase()}`);
      params.push(/\b(new|latest|recent|updated|changed)\b/.test(req.lower) ? '_sort=-_lastUpdated&_count=100' : '_count=100');
      config.query = `${type0}?${params.join('&')}`;
      filled.push(`query ${config.query}`);
      break;
    }
    case 'fhir-bulk-export': {
      if (types.length) {
        config.types = types;
        filled.push(`types ${types.join(', ')}`);
      }
      const group = req.text.match(/\bgroup\s+["']?([A-Za-z0-9\-.]{1,64})["']?/);
      if (group && !/^(export|level)$/i.test(group[1]!)) {
        config.level = 'group';
        config.group_id = group[1];
        filled.push(`group ${group[1]}`);
      }
      break;
    }
    case 'fhir-write':
      if (config.operation === 'create' && /\bupdate\b/.test(req.lower)) {
        config.operation = 'update';
        filled.push('operation update');
      } else if (config.operation === 'create' && /\bunless\b[^.]*\bexists?\b|\bif (it |one )?(does not|doesn't) (already )?exist|\bconditional\b|\bnot already there\b/.test(req.lower)) {
        config.operation = 'conditional-create';
        config.if_none_exist = 'identifier={{identifier.first().value}}';
        filled.push('conditional create on the first identifier');
        missing.push('if_none_exist: check the search that finds an existing resource (identifier={{identifier.first().value}})');
      }
      break;
    case 'fhir-validate': {
      if (/\bus core\b/.test(req.lower)) {
        const url = US_CORE_PROFILE_URLS.find((u) => types.some((t) => u.endsWith(`us-core-${t.toLowerCase()}`))) ?? US_CORE_PROFILE_URLS[0];
        config.profile = url;
        filled.push(`profile ${url}`);
      }
      break;
    }
    case 'fhir-deidentify':
    case 'hl7v2-deidentify': {
      const shift = DIGITS(/\bshift\w*[^.]{0,30}?\b(\d{1,4})\s*days?\b/, req.lower);
      if (shift && shift >= 1 && shift <= 3650) {
        config.date_shift_days = shift;
        filled.push(`dates shifted up to ${shift} days`);
      }
      if (/\bremove (the )?birth ?dates?|\bno birth year\b/.test(req.lower)) config.keep_birth_year = false;
      break;
    }
    case 'fhir-bundle-split':
      if (types.length && !(types.length === 1 && types[0] === 'Patient' && flow.kind !== 'fhir')) {
        config.types = types;
        filled.push(`types ${types.join(', ')}`);
      }
      break;
    case 'fhirpath-extract': {
      const expressions: Record<string, string> = {};
      for (const f of req.fields) {
        const [key, path] = FHIRPATHS[f] ?? [];
        if (key && path) expressions[key] = path;
      }
      if (Object.keys(expressions).length) {
        config.expressions = { id: 'id', ...expressions };
        filled.push(`fields ${Object.keys(expressions).join(', ')}`);
      } else missing.push('expressions: the request names no fields to extract (resourceType and id are extracted)');
      break;
    }
    case 'clinical-extract': {
      const include = ['Condition', 'MedicationStatement', 'Observation'].filter((t) => types.includes(t) || (t === 'MedicationStatement' && types.includes('MedicationRequest')));
      if (include.length) {
        config.include = include;
        filled.push(`include ${include.join(', ')}`);
      }
      const ref = req.text.match(/\bPatient\/[A-Za-z0-9\-.]{1,64}\b/);
      if (ref) config.patient_reference = ref[0];
      break;
    }
    case 'summarize': {
      const sentences = DIGITS(/\b(\d{1,2})[- ]sentences?\b/, req.lower) ?? DIGITS(/\bin (\d{1,2}) sentences?\b/, req.lower);
      if (sentences && sentences <= 50) config.max_sentences = sentences;
      const maxWords = DIGITS(/\b(?:under|at most|max(?:imum)?|within|no more than) (\d{1,4}) words\b/, req.lower);
      if (maxWords && maxWords >= 5) config.max_words = maxWords;
      const focus = req.lower.match(/\bfocus(?:ing|ed)? on ([a-z ,]+?)(?:[.;]|$| then| and then)/);
      if (focus) config.focus = focus[1]!.trim();
      if (sentences || maxWords || focus) filled.push(['summary', sentences && `${sentences} sentences`, maxWords && `≤ ${maxWords} words`, focus && `focus "${focus[1]!.trim()}"`].filter(Boolean).join(' '));
      break;
    }
    case 'llm-prompt': {
      const clause = req.text.split(/(?<=[.;])\s+/).find((s) => /\b(classif|categori|prompt|translat|explain|draft|generat|ask|llm|model|gpt|claude|ai)\w*/i.test(s));
      config.instructions = (clause ?? req.text).trim().slice(0, 500);
      filled.push('instructions from the request');
      break;
    }
    case 'agent':
      missing.push('agent_id: choose the agent to run (Agents page); a test run needs an active one, a real run a deployed one');
      break;
    case 'condition': {
      const p = predicate(req, flow, false);
      config.expression = p.expression;
      filled.push(`test: ${p.said}`);
      if (p.guessed) missing.push(`expression: ${p.said}`);
      break;
    }
    case 'filter': {
      const p = predicate(req, flow, true);
      config.expression = p.expression;
      filled.push(`keep: ${p.said}`);
      if (p.guessed) missing.push(`expression: ${p.said}`);
      break;
    }
    case 'switch': {
      const cases = switchCases(req, flow);
      config.cases = cases;
      filled.push(`cases ${cases.map((c) => c.port).join(', ')}`);
      break;
    }
    case 'json-schema-validate': {
      const required = req.fields.map((f) => f.replace(/\s+/g, '_'));
      const item = { type: 'object', ...(required.length ? { required } : {}) };
      config.schema = flow.list ? { type: 'array', items: item } : item;
      filled.push(required.length ? `schema requiring ${required.join(', ')}` : 'schema: an object');
      if (!required.length) missing.push('schema: the request names no required fields; the schema only checks the value is an object');
      break;
    }
    case 'csv-parse':
      if (/\btsv\b|\btab[- ](separated|delimited)\b/.test(req.lower)) config.delimiter = '\t';
      else if (/\bsemicolon/.test(req.lower)) config.delimiter = ';';
      else if (/\bpipe[- ]delimited\b/.test(req.lower)) config.delimiter = '|';
      break;
    case 'jsonata-transform':
      if (!config.expression && flow.kind === 'hl7') {
        const fields = Object.entries(HL7_FIELDS).filter(([w]) => new RegExp(`\\b${w}`).test(req.lower));
        const picked = fields.length ? fields : Object.entries(HL7_FIELDS).slice(0, 3);
        config.expression = `{${[...new Map(picked.map(([, kv]) => kv)).entries()].map(([k, v]) => `"${k}": ${v}`).join(', ')}}`;
        filled.push(`HL7 v2 fields ${[...new Set(picked.map(([, [k]]) => k))].join(', ')}`);
      } else if (!config.expression) {
        const keys = req.fields.map((f) => f.replace(/\s+/g, '_'));
        config.expression = keys.length ? `{${keys.map((k) => `"${k}": ${k}`).join(', ')}}` : '$';
        missing.push('expression: write the mapping (it passes the value on as it is)');
      }
      break;
    case 'code':
      if (!config.source) {
        config.source = 'return input;';
        missing.push('source: write the code (it returns its input as it is)');
      }
      break;
    case 'http-request': {
      const name = ctx.connectors.find((c) => c.type === 'http' && !ctx.used.has(c.name))?.name;
      if (req.urls[0]) {
        config.url = req.urls[0];
        filled.push(`url ${req.urls[0]}`);
      } else if (name) {
        config.connector = name;
        config.url = '/';
        ctx.used.add(name);
        filled.push(`connector "${name}"`);
        missing.push(`url: the path under the connector "${name}"`);
      } else {
        config.url = 'https://example.org/replace-me';
        missing.push('url: no address or http connector was given; replace https://example.org/replace-me');
      }
      break;
    }
    case 'postgres-query': {
      const table = req.table ?? (types[0] ? `${types[0].toLowerCase()}s` : undefined);
      if (table) {
        config.sql = `select * from ${table} limit 100`;
        filled.push(`sql on ${table}`);
      }
      missing.push('sql: check the query');
      break;
    }
    case 'postgres-write':
      if (flow.kind === 'fhir') {
        config.columns = { id: 'id', resource_type: 'resourceType', resource: '$' };
        filled.push('columns id, resource_type, resource (the FHIR JSON)');
      }
      if (req.table) {
        config.table = req.table;
        filled.push(`table ${req.table}`);
      } else missing.push('table: the request names no table');
      if (/\bupsert|\bupdate existing\b/.test(req.lower)) {
        config.mode = 'upsert';
        config.conflict_columns = ['id'];
      }
      break;
    case 'hl7v2-ack': {
      const code = req.text.match(/\b(AA|AE|AR|CA|CE|CR)\b/);
      if (code) config.code = code[1];
      break;
    }
  }
  return { config, filled, missing };
}
