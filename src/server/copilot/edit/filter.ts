import type { PipelineConnection } from '@/shared/pipeline';
import { isOutput, plannedWhere } from '../planner/behaviors';
import type { Flow } from '../planner/flow';
import { predicate } from '../planner/predicate';
import { readRequest } from '../planner/read';
import { isSink, isWrite, type EditGraph } from './graph';
import type { Op } from './intent';
import { insertOnEdge, type OpResult } from './ops-place';
import { addOutput, edgeAfter } from './points';
import { findNode } from './resolve';

const STATUSES = ['final', 'preliminary', 'amended', 'corrected', 'cancelled', 'active', 'inactive', 'resolved', 'completed', 'draft'];

/**
 * The test a sentence gives ("only keep female patients", "skip the rows where gender is male", "born after 1980",
 * "only final results", "only A01 admissions") as JSONata on the value where the test goes; `guessed` when the
 * sentence gave nothing to test and the generator's placeholder stands in.
 */
export function testOf(clause: string, flow: Flow, perItem: boolean): { expression: string; said: string; guessed: boolean } {
  const lower = clause.toLowerCase();
  const negative = /\b(filter\w* out|exclude\w*|skip\w*|drop\w*|remove\w*|discard\w*|without|except|not|non)\b/.test(lower);
  const eq = negative ? '!=' : '=';
  const field = (path: string, value: string) => ({ expression: `${path} ${eq} "${value}"`, said: `${path} ${eq} ${value}`, guessed: false });
  if (flow.kind === 'hl7') {
    const event = /\b([A-Z]\d{2})\b/.exec(clause);
    if (event) return field('trigger_event', event[1]!);
    const type = /\b(ADT|ORU|ORM|OML|SIU|VXU|MDM|DFT)\b/.exec(clause);
    if (type) return field('message_type', type[1]!);
  }
  const gender = /\b(female|male|women|men)\b/.exec(lower);
  if (gender) return field('gender', /^(female|women)$/.test(gender[1]!) ? 'female' : 'male');
  const born = /\bborn (after|before|since|in) (\d{4})\b/.exec(lower);
  if (born) {
    const op = born[1] === 'before' ? '<' : born[1] === 'in' ? '=' : '>';
    const expression = born[1] === 'in' ? `$substring(birthDate, 0, 4) = "${born[2]}"` : `birthDate ${op} "${born[2]}"`;
    return { expression: negative ? `$not(${expression})` : expression, said: `born ${born[1]} ${born[2]}`, guessed: false };
  }
  const where = /\bwhere (?:the )?([a-z_]+) (?:is|=|equals) (?:not )?["']?([a-z0-9_.-]+)["']?/.exec(lower);
  if (where) return { ...field(where[1]!, where[2]!), ...(/\bis not\b/.test(lower) ? { expression: `${where[1]} != "${where[2]}"` } : {}) };
  const status = STATUSES.find((s) => new RegExp(`\\b${s}\\b`).test(lower));
  if (status && flow.kind !== 'hl7') return field('status', status);
  const p = predicate(readRequest(clause), flow, perItem);
  return negative && !p.guessed ? { ...p, expression: `$not(${p.expression})`, said: `not ${p.said}` } : p;
}

/** Where a filter goes: the anchor said, what the verb names ("only load" → before the write), else before the end. */
function filterEdge(g: EditGraph, op: Extract<Op, { kind: 'filter' }>): PipelineConnection | undefined {
  if (op.anchor) {
    const n = findNode(g, op.anchor.a);
    if (n) return op.anchor.rel === 'before' ? g.mainIn(n.id) : edgeAfter(g, n.id);
  }
  const verb = /\bonly (load|write|store|send|forward|convert|process|return)\b/i.exec(op.clause)?.[1]?.toLowerCase();
  const chain = g.mainChain();
  const named =
    verb === 'convert'
      ? chain.find((id) => g.node(id)!.type.endsWith('-to-fhir'))
      : verb && verb !== 'return' && verb !== 'process'
        ? chain.find((id) => isWrite(g.node(id)!.type))
        : undefined;
  const end = named ?? chain.find((id) => isSink(g.node(id)!.type) || isOutput(g.node(id)!.type)) ?? chain.at(-1);
  return end ? g.mainIn(end) : undefined;
}

const KEEPER = plannedWhere((p) => p.router === 'keep')[0]!;
const TESTER = plannedWhere((p) => Boolean(p.answers?.test?.fallback))[0]!;

/** "Only keep female patients": a filter (on a list) or a condition (on one value) with the sentence's test. */
export function filterOp(g: EditGraph, op: Extract<Op, { kind: 'filter' }>, ctx: Parameters<typeof insertOnEdge>[4]): OpResult {
  const edge = filterEdge(g, op);
  if (!edge) return { ok: false, changes: [], problem: 'no connection in the pipeline to put the test on' };
  const flow = g.flows().get(`${edge.source}.${edge.source_port}`) ?? { type: 'json', kind: 'json' };
  const list = Boolean(flow.list);
  // a list keeps what passes (filter); one value is tested (the test capability's fallback: condition)
  const type = list ? KEEPER : TESTER;
  const test = testOf(op.clause, flow, list);
  const r = insertOnEdge(g, edge, [type], op.clause, ctx);
  if (!r.ok || !r.placed) return r;
  const node = g.node(r.placed)!;
  node.config = { ...node.config, expression: test.expression };
  const changes = r.changes.map((c) => c.replace(/: (keep|test): [^;]*$/, ''));
  changes.push(`${node.id} ${list ? 'keeps' : 'lets through'} ${test.said} (${test.expression})`);
  if (test.guessed) changes.push(`${node.id}: the sentence gave no test the planner could read; set the expression by hand`);
  const aside = g.asideOutput(node.id);
  if (op.rest && aside) changes.push(`the rest goes to the output ${addOutput(g, g.point(g.flows(), node.id, aside), 'rest')}`);
  return { ...r, changes };
}
