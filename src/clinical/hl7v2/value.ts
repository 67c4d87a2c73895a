import { Hl7v2Error } from './errors';
import { delimitersOf, messageOf } from './header';
import { isBatch } from './parse';
import { problems } from './serialize';
import type { Hl7v2Batch, Hl7v2Message } from './types';

function invalid(list: string[]): never {
  throw new Hl7v2Error(list.map((message) => ({ code: 'HL7_INVALID' as const, message: `Not an hl7v2-message: ${message}.` })));
}

/**
 * A value that arrived as an hl7v2-message (from a parse node, or built or edited by a code or JSONata
 * node), checked and with its header facts and delimiters read again from its MSH, so a stale copy of them
 * never wins over the segments. Throws Hl7v2Error naming what is wrong.
 */
export function readMessage(value: unknown): Hl7v2Message {
  if (value && typeof value === 'object' && isBatch(value as Hl7v2Batch)) invalid(['a batch is not one message (take its messages one by one)']);
  const found = problems(value);
  if (found.length) invalid(found);
  const segments = (value as Hl7v2Message).segments;
  const msh = segments[0]!;
  const d = delimitersOf(`MSH${msh.fields[1]}${msh.fields[2] ?? ''}${msh.fields[1]}`);
  if (typeof d === 'string') invalid([d]);
  return messageOf(segments, d);
}
