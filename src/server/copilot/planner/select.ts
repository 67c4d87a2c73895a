import { BEHAVIORS, shareJob } from './behaviors';
import { descriptor, searchNodes, type SearchHit } from './catalog';
import type { Request, Want } from './read';

export interface Step {
  type: string;
  at: number;
  said: string;
  /** On the branch of what a router sends aside ("otherwise…"). */
  aside?: boolean;
}

const DATA_WORDS = new Set(['pid', 'obx', 'nte', 'msh', 'pv1', 'obr', 'hl7', 'hl7v2', 'v2', 'fhir', 'r4', 'x12', 'edi', 'adt', 'oru', 'orm', 'oml', 'siu', 'vxu', 'mdm', '837', '835', '834', 'message', 'messages', 'bundle', 'resource', 'resources', 'claim', 'claims', 'patient', 'patients', 'server', 'mllp', 'text', 'json']);

const wantsFhir = (req: Request) => /\bfhir\b/.test(req.lower) || req.wants.some((w) => ['to-fhir', 'fhir-write', 'fhir-query', 'fhir-bulk-export'].includes(w.what));

/** A capability (`validate`, `deidentify`, `to-fhir`, `filter`, `ai`) as the node type that does it for this data; null: none needed. */
function resolve(w: Want, req: Request, chosen: Set<string>): { type: string; why: string } | null {
  const clause = req.lower.slice(w.at).split(/[,;.]| and | then | before | if /)[0]!;
  switch (w.what) {
    case 'to-fhir':
      if (req.data === 'hl7') return { type: 'hl7v2-to-fhir', why: 'HL7 v2 to FHIR' };
      if (req.data === 'x12') return { type: req.x12 === '835' ? 'x12-835-to-fhir' : 'x12-837-to-fhir', why: `X12 ${req.x12 ?? '837'} to FHIR` };
      if (req.data === 'note' && !chosen.has('summarize')) return { type: 'clinical-extract', why: 'clinical text to FHIR' };
      return null;
    case 'validate':
      if (req.data === 'x12' && req.x12 !== '835' && (/\bclaim|\bscrub|\bedits?\b|\b837/.test(clause) || !/\bfhir|\bresources?\b|\bprofile|\bus core/.test(clause))) return { type: 'claim-validate', why: 'claims are checked by claim edits' };
      if (!wantsFhir(req) && (req.data === 'csv' || req.data === 'json')) return { type: 'json-schema-validate', why: 'rows are checked against a JSON Schema' };
      if (!wantsFhir(req) && req.data === 'hl7') return null;
      return { type: 'fhir-validate', why: 'FHIR is validated against R4' };
    case 'deidentify':
      if (req.data === 'hl7' && !wantsFhir(req)) return { type: 'hl7v2-deidentify', why: 'the messages stay HL7 v2' };
      return { type: 'fhir-deidentify', why: 'the data is FHIR by then' };
    case 'keep-matching':
      if (req.data === 'csv' || req.data === 'fhir' || chosen.has('fhir-bulk-export') || chosen.has('postgres-query') || wantsFhir(req)) return { type: 'filter', why: 'keeps the items that match' };
      return { type: 'condition', why: 'a single value is kept or sent aside' };
    case 'extract-fields':
      if (req.data === 'hl7' && !wantsFhir(req)) return { type: 'jsonata-transform', why: 'HL7 v2 fields read with $hl7()' };
      if (req.data === 'fhir' || wantsFhir(req)) return chosen.has('clinical-extract') ? null : { type: 'fhirpath-extract', why: 'FHIR fields read with FHIRPath' };
      return null;
    case 'extract-clinical':
      return req.data === 'note' || /\bnotes?\b|\bnarratives?\b|\bdocumentreference|\bfree[- ]text|\bdictat|\btranscri/.test(req.lower) ? { type: 'clinical-extract', why: 'from clinical text' } : null;
    case 'test':
      if (req.data === 'csv' || chosen.has('fhir-bulk-export') || chosen.has('postgres-query') || /\b(rows|records|entries|items)\b/.test(req.lower.slice(Math.max(0, w.at - 40), w.at + 20)))
        return { type: 'filter', why: 'a test on each row keeps the rows that pass' };
      return { type: 'condition', why: 'a test sends the value one way or the other' };
    case 'ai':
      return chosen.has('summarize') || chosen.has('clinical-extract') || chosen.has('agent') || chosen.has('llm-prompt') ? null : { type: 'llm-prompt', why: 'a language model' };
    default:
      return { type: w.what, why: '' };
  }
}

/**
 * The steps of the pipeline: what the request's cues ask for (capabilities resolved by the data), plus node
 * types the catalog search finds by rare words of their names and keywords, without two of the same job.
 */
export function chooseSteps(req: Request, reasoning: string[]): { steps: Step[]; hits: SearchHit[] } {
  const chosen = new Set<string>();
  const steps: Step[] = [];
  const wants = [...req.wants].sort((a, b) => (a.what === 'ai' ? 1 : 0) - (b.what === 'ai' ? 1 : 0) || a.at - b.at);
  const said: string[] = [];
  for (const w of wants) {
    const r = resolve(w, req, chosen);
    if (!r || chosen.has(r.type)) continue;
    chosen.add(r.type);
    steps.push({ type: r.type, at: w.at, said: w.said });
    said.push(`"${w.said}" → ${r.type}${r.why ? ` (${r.why})` : ''}`);
  }
  const dropped = drop(steps, chosen, req);
  // FHIR is validated before it is written (the write's own check stops a bad one; this routes it aside)
  const write = steps.find((s) => s.type === 'fhir-write');
  if (write && !chosen.has('fhir-validate')) {
    chosen.add('fhir-validate');
    steps.push({ type: 'fhir-validate', at: write.at, said: 'validate before writing' });
    said.push('fhir-write → fhir-validate before it, so what the server would refuse goes aside');
  }
  // raw CSV or X12 means nothing unparsed; HL7 v2 neither when nothing else is asked of it
  const parser = { csv: 'csv-parse', x12: 'x12-parse', hl7: 'hl7v2-parse' }[req.data as 'csv' | 'x12' | 'hl7'];
  if (parser && !chosen.has(parser) && (req.data !== 'hl7' || steps.length === 0)) {
    chosen.add(parser);
    steps.push({ type: parser, at: 0, said: req.data });
    said.push(`the data is ${req.data} → ${parser}`);
  }
  const hits = searchNodes(req.text);
  for (const h of hits.slice(0, 6)) {
    const b = BEHAVIORS[h.type];
    // nodes that the cues place, or that the data asks for, are not added by a search hit
    if (!b || b.search === false || chosen.has(h.type) || dropped.has(h.type) || h.score < 14) continue;
    // words that name the data (HL7, FHIR, ADT…) match many nodes; a hit needs a word of what the node does
    if (!h.matched.some((m) => !DATA_WORDS.has(m))) continue;
    // one node of a job (validate, de-identify, parse…) is enough
    if ([...chosen].some((t) => shareJob(h.type, t))) continue;
    if (b.role !== 'step' || descriptor(h.type).side_effect === 'write') continue;
    const at = Math.min(...h.matched.map((m) => req.lower.indexOf(m)).filter((i) => i >= 0));
    chosen.add(h.type);
    steps.push({ type: h.type, at: Number.isFinite(at) ? at : req.lower.length, said: h.matched.join(', ') });
    said.push(`catalog search: ${h.type} (matched ${h.matched.slice(0, 4).join(', ')})`);
  }
  reasoning.push(`Catalog search, best matches: ${hits.slice(0, 5).map((h) => `${h.type} ${h.score}`).join(', ') || 'none'}.`);
  reasoning.push(said.length ? `Steps asked for: ${said.join('; ')}.` : 'The request names no step the catalog has: the plan passes the input to the output.');
  return { steps, hits };
}

/** Steps that another chosen step makes redundant, or that a cue matched on a phrase meant for another. */
function drop(steps: Step[], chosen: Set<string>, req: Request): Set<string> {
  const dropped = new Set<string>();
  const remove = (type: string) => {
    if (chosen.has(type)) dropped.add(type);
    const i = steps.findIndex((s) => s.type === type);
    if (i >= 0) steps.splice(i, 1);
    chosen.delete(type);
  };
  if (chosen.has('fhir-bulk-export')) remove('fhir-query');
  // a read phrase that runs on into the write phrase ("…and create each Patient on the FHIR server")
  const query = steps.find((s) => s.type === 'fhir-query');
  const write = steps.find((s) => s.type === 'fhir-write');
  if (query && write && write.at > query.at && write.at < query.at + query.said.length) remove('fhir-query');
  if (chosen.has('filter')) remove('condition');
  // "…if it is valid": the validator routes that already
  const test = steps.find((s) => s.type === 'condition');
  if (test && /\bvalid\b|\binvalid\b/.test(req.lower.slice(test.at, test.at + 40)) && ['fhir-validate', 'claim-validate', 'json-schema-validate'].some((t) => chosen.has(t))) remove('condition');
  // FHIRPath reads each entry of a Bundle itself
  if (chosen.has('fhirpath-extract')) remove('fhir-bundle-split');
  // an agent that drafts or explains is the model step; a prompt node beside it only when one is named
  const prompt = steps.find((s) => s.type === 'llm-prompt');
  if (prompt && chosen.has('agent') && !/\bprompt|\bllm\b|\bmodel\b|\bgpt\b|\bclaude\b/.test(prompt.said)) remove('llm-prompt');
  if (chosen.has('switch')) remove('condition');
  if (chosen.has('clinical-extract') && chosen.has('fhir-bundle-split') && !/\bsplit/.test(req.lower)) remove('fhir-bundle-split');
  const http = steps.find((s) => s.type === 'http-request');
  if (http && /fhir|\behr\b/.test(http.said) && chosen.has('fhir-write')) remove('http-request');
  const pgQuery = steps.find((s) => s.type === 'postgres-query');
  if (pgQuery && chosen.has('postgres-write') && /\b(write|insert|load|store|save|upsert|append|land)/.test(pgQuery.said)) remove('postgres-query');
  if (req.trigger.type === 'mllp-listener-trigger') {
    const send = steps.find((s) => s.type === 'hl7v2-mllp-send');
    const outbound = /\b(send|forward|relay|deliver|push|transmit|pass)\w*\b[^.]{0,80}\bto\b[^.]{0,40}\b(mllp|lis|ris|interface|system|engine|downstream)\b/;
    if (send && !outbound.test(req.lower)) remove('hl7v2-mllp-send');
    remove('hl7v2-ack');
  }
  if (req.data !== 'hl7') {
    remove('hl7v2-ack');
    remove('hl7v2-serialize');
  }
  if (chosen.has('fhir-write') && chosen.has('postgres-write')) {
    const pg = steps.find((s) => s.type === 'postgres-write')!;
    if (!/postgres|database|warehouse|\bdb\b|sql|table/.test(pg.said)) remove('postgres-write');
  }
  const fhirWrite = steps.find((s) => s.type === 'fhir-write');
  if (fhirWrite && !/fhir|\behr\b|hapi/.test(fhirWrite.said) && ['http-request', 'hl7v2-mllp-send', 'postgres-write'].some((t) => chosen.has(t))) remove('fhir-write');
  return dropped;
}
