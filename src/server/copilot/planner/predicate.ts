import type { Flow } from './flow';
import type { Request } from './read';

/**
 * The tests a request asks for ("abnormal values", "potassium above 6", "urgent ones", "by message type"),
 * as JSONata on the value as it flows at that point: a parsed HL7 v2 message (`$hl7all`), a FHIR Bundle or
 * resource, CSV rows, a model's answer.
 */

const ABNORMAL = '["H","HH","L","LL","A","AA","HU","LU","<",">"]';

/** A JSONata test of "abnormal", "urgent", "potassium above 6"… on the value as it flows at that point. */
export function predicate(req: Request, flow: Flow, perItem: boolean): { expression: string; said: string; guessed: boolean } {
  const t = req.threshold;
  const urgent = /\burgent|\bescalat\w*|\bemergen\w*|\bhigh[- ]priority\b/.test(req.lower);
  if (flow.kind === 'answer') {
    const word = urgent ? 'urgent' : /\bcritical\b/.test(req.lower) ? 'critical' : /\babnormal\b/.test(req.lower) ? 'abnormal' : 'yes';
    return { expression: `$contains($lowercase($string($)), "${word}")`, said: `the answer mentions "${word}"`, guessed: false };
  }
  if (flow.kind === 'hl7') {
    if (t) {
      // OBX-3 names the test, OBX-5 holds its value (fields are indexed by HL7 field number)
      const expression = [
        `$count(segments[id = "OBX" and $contains($lowercase(fields[3]), "${t.field}") and`,
        `$contains(fields[5], /^-?[0-9.]+$/) and $number(fields[5]) ${t.op} ${t.value}]) > 0`,
      ].join(' ');
      return { expression, said: `an OBX of ${t.field} (OBX-3) with a value (OBX-5) ${t.op} ${t.value}`, guessed: false };
    }
    return { expression: `$count($hl7all($, "OBX-8")[$ in ${ABNORMAL}]) > 0`, said: 'an OBX abnormal flag (OBX-8) is set', guessed: false };
  }
  if (flow.kind === 'fhir') {
    const obs = perItem ? '$' : 'entry.resource';
    const where = perItem ? 'resourceType = "Observation" and ' : '';
    if (t) {
      const test = `$contains($lowercase($string(code)), "${t.field}") and valueQuantity.value ${t.op} ${t.value}`;
      return perItem
        ? { expression: `resourceType = "Observation" and ${test}`, said: `Observations of ${t.field} ${t.op} ${t.value}`, guessed: false }
        : {
            expression: `$count(${obs}[resourceType = "Observation" and ${test}]) > 0`,
            said: `an Observation of ${t.field} ${t.op} ${t.value}`,
            guessed: false,
          };
    }
    if (/\babnormal|\bcritical|\bout[- ]of[- ]range|\bpanic\b|\bflag/.test(req.lower) || urgent) {
      const codes = /\bcritical|\bpanic\b/.test(req.lower) ? '["HH","LL","AA"]' : ABNORMAL;
      return perItem
        ? { expression: `${where}interpretation.coding.code in ${codes}`, said: 'Observations flagged abnormal (interpretation)', guessed: false }
        : {
            expression: `$count(${obs}[resourceType = "Observation" and interpretation.coding.code in ${codes}]) > 0`,
            said: 'an Observation flagged abnormal (interpretation)',
            guessed: false,
          };
    }
    if (/\bactive\b/.test(req.lower))
      return { expression: `clinicalStatus.coding[0].code = "active" or status = "active"`, said: 'active resources', guessed: false };
    if (/\bdeceased\b/.test(req.lower)) return { expression: `$exists(deceasedDateTime) or deceasedBoolean = true`, said: 'deceased patients', guessed: false };
    if (/\bfinal\b/.test(req.lower)) return { expression: `status = "final"`, said: 'final results', guessed: false };
    const type = req.resourceTypes[0];
    if (type && perItem) return { expression: `resourceType = "${type}"`, said: `${type} resources`, guessed: false };
  }
  if (t) {
    const field = t.field.replace(/\W+/g, '_');
    return { expression: `$number(${field}) ${t.op} ${t.value}`, said: `${field} ${t.op} ${t.value}`, guessed: false };
  }
  if (/\babnormal|\bflag/.test(req.lower))
    return { expression: `abnormal_flag in ${ABNORMAL}`, said: 'abnormal_flag is set (check the field name)', guessed: true };
  return { expression: '$exists($)', said: 'a placeholder test: nothing in the request said what to test', guessed: true };
}

/** Cases of a switch: one per HL7 message type or FHIR resource type the request names. */
export function switchCases(req: Request, flow: Flow): { port: string; expression: string }[] {
  if (flow.kind === 'hl7') {
    const types = [...new Set((req.text.match(/\b(ADT|ORU|ORM|OML|SIU|VXU|MDM|DFT|BAR|RDE|REF)\b/gi) ?? []).map((t) => t.toUpperCase()))];
    return (types.length ? types : ['ADT', 'ORU']).map((t) => ({ port: t.toLowerCase(), expression: `message_type = "${t}"` }));
  }
  const types = req.resourceTypes.length ? req.resourceTypes : ['Patient', 'Observation'];
  return types.slice(0, 8).map((t) => ({ port: t.replace(/[^A-Za-z0-9_]/g, '').toLowerCase(), expression: `resourceType = "${t}"` }));
}
