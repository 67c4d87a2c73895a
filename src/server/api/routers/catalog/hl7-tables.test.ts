import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessage } from '@/clinical/hl7v2/parse';
import { hl7Segments, tableLookups } from '@/features/clinical-views/hl7v2-model';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../../tests/support/runtime';

const ADT = path.resolve(import.meta.dirname, '../../../../../../shared/data/hl7v2/messages/ADT-A01-01.hl7');

describe('catalog.hl7Tables: meanings of the coded values of a message', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await memoryRuntime();
  }, 60_000);
  afterAll(() => rt.database.close());

  it('answers what the HL7 view asks for an ADT message: PID-8 M → Male, PV1-2 P → Preadmit, site tables left out', async () => {
    const api = await orgCaller(rt, 'org-tables', ['read']);
    const codes: Record<string, string[]> = {};
    for (const l of tableLookups(hl7Segments(parseMessage(readFileSync(ADT, 'utf8'))))) (codes[l.table] ??= []).push(l.code);
    const { tables } = await api.catalog.hl7Tables({ codes });
    const by = new Map(tables.map((t) => [t.table, t]));
    expect(by.get('0001')?.codes).toEqual({ M: 'Male', F: 'Female' });
    expect(by.get('0001')?.title).toBe('Sex');
    expect(by.get('0004')?.codes.P).toBe('Preadmit');
    // HD namespace ids (table 0300) are each site's own: no meanings shipped
    expect(by.has('0300')).toBe(false);
    // only what was asked: a table's other codes stay on the server
    expect(Object.keys(by.get('0004')!.codes)).toEqual(['P']);
  });

  it('refuses what is not a table number', async () => {
    const api = await orgCaller(rt, 'org-tables', ['read']);
    await expect(api.catalog.hl7Tables({ codes: { PID: ['x'] } })).rejects.toThrow();
  });
});
