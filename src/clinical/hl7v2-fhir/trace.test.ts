import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMessage } from '../hl7v2';
import { convertMessage } from './convert';
import { traceMapping } from './trace';

const ADT = readFileSync(path.resolve(import.meta.dirname, '../../../../shared/data/hl7v2/messages/ADT-A01-01.hl7'), 'utf8');

describe('the mapping a conversion applied, read back from a sample', () => {
  it("finds where the patient's identifier, name and birth date landed", () => {
    const message = parseMessage(ADT);
    const { rules, untraced } = traceMapping(message, convertMessage(message).bundle);
    const by = (hl7: string) => rules.find((r) => r.hl7 === hl7);
    expect(by('PID-3.1')?.fhir).toContain('Patient.identifier[].value');
    expect(by('PID-5.1.1')).toMatchObject({ example: 'EVERYMAN', fhir: expect.arrayContaining(['Patient.name[].family']) });
    expect(by('PID-11.3')).toMatchObject({ example: 'Ann Arbor', fhir: ['Patient.address[].city'] });
    expect(rules.length).toBeGreaterThan(10);
    expect(untraced.every((u) => !rules.some((r) => r.hl7 === u.hl7))).toBe(true);
  });
});
