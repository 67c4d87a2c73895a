/**
 * A change request in words → the changes it asks for, clause by clause ("validate the bundle and then write it
 * to the FHIR server instead of returning it; retry the write 4 times" is three). Only the reading: which step,
 * where, what it replaces; the ops resolve the names against the pipeline.
 */
import { triggerTypeOf } from '../planner/behaviors';

export interface Anchor {
  rel: 'before' | 'after' | 'between';
  a: string;
  b?: string;
}

export type Op =
  | { kind: 'retry'; clause: string; attempts: number; target: string }
  | { kind: 'order'; clause: string; ack: boolean; patient: boolean }
  | { kind: 'remove'; clause: string; target: string }
  | { kind: 'trigger'; clause: string; to: string; said: string }
  | { kind: 'replace'; clause: string; what: string; old: string }
  | { kind: 'filter'; clause: string; rest: boolean; anchor?: Anchor }
  | { kind: 'instead'; clause: string; what: string }
  | { kind: 'place'; clause: string; what: string; anchor?: Anchor; parallel: boolean; then: boolean; adds: boolean }
  | { kind: 'unknown'; clause: string };

const NUMBERS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
};

const NUMBER_WORDS = new RegExp(`\\b(${Object.keys(NUMBERS).join('|')})\\b(?=\\s+(times|attempts|sentences?|words|minutes|hours|days|retries|tries))`, 'gi');

/** Number words as digits ("five sentences" → "5 sentences", "twice" → "2 times"). */
export function digits(text: string): string {
  return text.replace(/\btwice\b/gi, '2 times').replace(NUMBER_WORDS, (w) => String(NUMBERS[w.toLowerCase()]));
}

const VERBS = [
  'add',
  'insert',
  'put',
  'remove',
  'delete',
  'drop',
  'retry',
  'validate',
  'write',
  'send',
  'post',
  'store',
  'save',
  'load',
  'archive',
  'de-?identify',
  'extract',
  'run',
  'do',
  'move',
  'convert',
  'split',
  'filter',
  'look',
  'make',
  'use',
  'replace',
  'start',
  'trigger',
  'forward',
  'notify',
  'fill',
  'check',
  'strip',
  'summari[sz]e',
  'change',
  'set',
  'only',
  'keep only',
  'skip',
  'exclude',
  'pull',
  'route',
];
const VERB = `(?:${VERBS.join('|')})\\b`;
const SPLIT = new RegExp(
  [
    ',?\\s+and then\\s+',
    ',\\s+and\\s+(?=(?:once|when|after|before|also|just|right)\\b)',
    ',\\s*then\\s+',
    `\\s+then\\s+(?=${VERB})`,
    `,?\\s+and\\s+(?=${VERB})`,
    `,\\s+(?=${VERB})`,
  ].join('|'),
  'i',
);
const SUBORDINATE =
  /^(once|when|whenever|after|before|just|right|immediately|instead|in parallel|as soon|if|for each|following|in addition|additionally|also)\b/i;

/** The clauses of a request: hard breaks at ; and sentence ends, soft ones at "and then", ", then", "and <verb>". */
export function clauses(request: string): { text: string; then: boolean }[] {
  const out: { text: string; then: boolean }[] = [];
  for (const sentence of digits(request).split(/;\s*|\.\s+|\.$|\n+/)) {
    const parts: { text: string; then: boolean }[] = [];
    let rest = sentence.trim();
    let then = false;
    while (rest) {
      const m = SPLIT.exec(rest);
      if (!m || m.index === 0) {
        parts.push({ text: rest, then });
        break;
      }
      parts.push({ text: rest.slice(0, m.index), then });
      then = /then/i.test(m[0]);
      rest = rest.slice(m.index + m[0].length).trim();
    }
    // "once the message is parsed, strip…": a clause that only says when goes with the next one
    for (let i = 0; i < parts.length; i++) {
      if (i + 1 < parts.length && SUBORDINATE.test(parts[i]!.text) && !/\b(and|then)\b/i.test(parts[i]!.text.split(/\s+/).slice(-1)[0] ?? '')) {
        parts[i + 1] = { text: `${parts[i]!.text}, ${parts[i + 1]!.text}`, then: parts[i]!.then };
        continue;
      }
      if (parts[i]!.text.trim()) out.push({ text: parts[i]!.text.trim().replace(/[.,;]+$/, ''), then: parts[i]!.then });
    }
  }
  return out;
}

/** Where a clause puts the step: between two, before or after one ("once the message is parsed" is after). */
export function anchorOf(clause: string): { anchor?: Anchor; rest: string } {
  const between = /\bbetween\s+(.+?)\s+and\s+(.+?)(?=[,.;]|$)/i.exec(clause);
  if (between) return { anchor: { rel: 'between', a: between[1]!, b: between[2]! }, rest: clause.replace(between[0], ' ') };
  const re = /\b(?:just |right |immediately |directly )?(before|after|once|when|as soon as|following|ahead of|prior to)\s+(.+?)(?=,|;|$)/gi;
  const all = [...clause.matchAll(re)].filter((m) => !/^\d/.test(m[2]!));
  const m = all.at(-1);
  if (!m) return { rest: clause };
  const rel = /before|ahead|prior/i.test(m[1]!) ? 'before' : 'after';
  return { anchor: { rel, a: m[2]! }, rest: clause.replace(m[0], ' ') };
}

const PARALLEL = /\b(also|as well|too|in parallel|alongside|in addition|additionally|a copy|another)\b/i;
const ADDS = /\b(add|insert|put (a|an|in)|include|also|another|new)\b/i;
const FILTER = new RegExp(
  [
    '\\bonly (keep|load|convert|send|write|process|pass|return|include|store|forward|take)\\b|\\bkeep only\\b|\\bfilter\\w*\\b',
    '\\b(skip|exclude|drop|remove|discard)\\w*\\b[^,;]{0,25}' +
      '\\b(rows|records|patients|resources|observations|ones|those|entries|items|messages|results)\\b(?! step)',
    '\\bonly\\b[^,;]{0,30}\\b(patients|rows|records|results|observations|messages|admissions|claims)\\b',
  ].join('|'),
  'i',
);
/** Words that ask for a trigger, by the event it starts on (`manual`: by hand or a request): its type is the registry's. */
const TRIGGERS: [RegExp, string][] = [
  [/\bwebhook\b/i, 'webhook'],
  [/\bmllp\b[^,;]{0,40}\b(port|listen|receiv|inbound|incoming)|\b(listen|receiv|accept)\w*\b[^,;]{0,40}\bmllp\b/i, 'mllp'],
  [/\bby hand\b|\bmanual\w*\b|\bon demand\b/i, 'manual'],
  [/\bschedule\b|\bnightly\b|\bhourly\b|\bdaily\b|\bevery (\d+ )?(minute|hour|day|night|morning|week|month)\w*|\bat \d{1,2}\s*(am|pm)\b|\bcron\b/i, 'schedule'],
];
const STARTS = /\b(start\w*|trigger\w*|kick\w* off|run (it|this)|receiv\w*|listen\w*|make (it|this)|change the schedule|schedule (it|this))\b/i;

/** New part and old part of "A instead of B", "A rather than B", "instead of B, A", "replace B with A". */
function insteadParts(clause: string): { now: string; old: string | null } | null {
  const replace = /\breplace\s+(.+?)\s+(?:with|by)\s+(.+)$/i.exec(clause);
  if (replace) return { now: replace[2]!, old: replace[1]! };
  const lead = /^(?:but\s+)?(?:instead of|rather than)\s+(.+?),\s*(.+)$/i.exec(clause);
  if (lead) return { now: lead[2]!, old: lead[1]! };
  const mid = /^(.+?)\s+(?:instead of|rather than|in place of)\s+(.+)$/i.exec(clause);
  if (mid) return { now: mid[1]!, old: mid[2]! };
  if (/\binstead\b/i.test(clause)) return { now: clause.replace(/\binstead\b/i, ' ').trim(), old: null };
  return null;
}

/**
 * "Acknowledge messages once their run ended" (`ack`: the listener's ACK waits for each run, ack_mode completed), "keep
 * the feed's messages in order" (a listener does already: answered so, with nothing changed).
 */
const ACK_AFTER_RUN = /\back(?:nowledge)?\w*\b[^.;]*\b(?:after|once|when)\b[^.;]*\b(?:runs?|process\w*|complet\w*|finish\w*|ended|done)\b/;
const KEEP_ORDER = /\b(?:keep\w*|kept|preserv\w*|in)\s+(?:the\s+|their\s+|its\s+)?(?:arrival\s+|sending\s+|message\s+)?order\b(?!\s+(?:to|of|by|for|from)\b)/;
const FEED = /\b(?:messages?|feed|runs?|listener|mllp|hl7)\b/;
/** "Keep the order per patient", "run different patients' messages side by side": the listener's `order: patient`. */
const ORDER_PER_PATIENT = /\b(?:order\w*|sequence\w*|in turn)\b[^.;]*\b(?:per|by|for each|of each|within each|each)\s+patient\b/;
const PATIENTS_AT_ONCE = /\b(?:different|other|several|separate)\s+patients?\b[^.;]*\b(?:in parallel|side by side|concurrently|at (?:the same time|once))\b/;
const asksPatientOrder = (lower: string) => ORDER_PER_PATIENT.test(lower) || PATIENTS_AT_ONCE.test(lower);
const asksOrder = (lower: string) => ACK_AFTER_RUN.test(lower) || asksPatientOrder(lower) || (KEEP_ORDER.test(lower) && FEED.test(lower));

/** One clause → one change. */
function read(clause: string, then: boolean): Op {
  const lower = clause.toLowerCase();
  if (/\bretr(y|ies|ied)\b/.test(lower)) {
    const n = /(\d+)\s*(times|attempts|x\b|tries)/.exec(lower);
    return {
      kind: 'retry',
      clause,
      attempts: Math.min(10, Math.max(1, Number(n?.[1] ?? 3))),
      target: lower.replace(/\bretr\w*\b|\d+\s*(times|attempts|tries)|\bif it fails\b/g, ' ').trim(),
    };
  }
  if (asksOrder(lower)) return { kind: 'order', clause, ack: ACK_AFTER_RUN.test(lower), patient: asksPatientOrder(lower) };
  const parts = insteadParts(clause);
  const now = parts?.now ?? clause;
  const trigger = TRIGGERS.find(([re]) => re.test(now));
  if (trigger && (STARTS.test(clause) || parts) && !/\b(post|send|notify|call|forward)\w*\b[^,;]{0,40}\bwebhook\b/i.test(now)) {
    return { kind: 'trigger', clause, to: triggerTypeOf(trigger[1]), said: now };
  }
  if (FILTER.test(clause))
    return {
      kind: 'filter',
      clause,
      rest: /\b(the rest|everything else|otherwise|others|separate output)\b/i.test(clause),
      anchor: anchorOf(clause.replace(/\bborn (after|before)\b.*/i, '')).anchor,
    };
  const remove =
    /^(?:please\s+)?(?:remove|delete|drop|take out|get rid of|skip)\s+(.+)$/i.exec(clause) ??
    /\b(?:don'?t|do not|no longer)\s+(?:need|want)\s+(.+?)(?:\s+any ?more)?(?:,|$)/i.exec(clause);
  const stop = /^(?:please\s+)?stop\s+([\w-]+ing\b.*)$/i.exec(clause);
  if (remove || stop) return { kind: 'remove', clause, target: (remove?.[1] ?? stop![1]!).replace(/\s+(node|step)$/i, '') };
  if (parts?.old) return { kind: 'replace', clause, what: parts.now, old: parts.old };
  if (parts) return { kind: 'instead', clause, what: parts.now };
  const { anchor, rest } = anchorOf(clause);
  if (!/\w/.test(rest) && !anchor) return { kind: 'unknown', clause };
  return { kind: 'place', clause, what: rest, anchor, parallel: PARALLEL.test(clause), then, adds: ADDS.test(clause) };
}

/** The changes a request asks for, in its order. "…; route the rest to an output" goes with the filter before it. */
export function readEdits(request: string): Op[] {
  const ops: Op[] = [];
  for (const c of clauses(request)) {
    const prev = ops.at(-1);
    if (prev?.kind === 'filter' && /\b(the rest|everything else|otherwise|the others)\b/i.test(c.text)) {
      prev.rest = true;
      continue;
    }
    if (/^(and\s+)?keep (returning|the output|it|everything|what)/i.test(c.text) || /^(take|leave) it out$/i.test(c.text)) continue;
    ops.push(read(c.text, c.then));
  }
  return ops;
}
