import { createHash } from 'node:crypto';

export interface Found {
  conditions: Array<{ name: string }>;
  medications: Array<{ name: string; dose: string; route: string; frequency: string }>;
  observations: Array<{ name: string; value: string; unit: string }>;
}

type Subject = { reference: string } | { display: string };

/** A UUID from the text and the item, so the same note gives the same Bundle every time. */
function uuid(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const concept = (text: string) => ({ text });
const clean = (s: string) => s.trim();

/** FHIR R4 resources for what was found, in a collection Bundle. */
export function toBundle(text: string, found: Found, subject: Subject, include: string[]) {
  const resources: Array<Record<string, unknown>> = [];
  if (include.includes('Condition')) {
    for (const c of found.conditions.filter((x) => clean(x.name))) {
      resources.push({
        resourceType: 'Condition',
        id: uuid(text, 'Condition', c.name),
        clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
        verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code: 'unconfirmed' }] },
        code: concept(clean(c.name)),
        subject,
      });
    }
  }
  if (include.includes('MedicationStatement')) {
    for (const m of found.medications.filter((x) => clean(x.name))) {
      const dosageText = [m.name, m.dose, m.route, m.frequency].map(clean).filter(Boolean).join(' ');
      resources.push({
        resourceType: 'MedicationStatement',
        id: uuid(text, 'MedicationStatement', dosageText),
        status: 'active',
        medicationCodeableConcept: concept(clean(m.name)),
        subject,
        dosage: [
          {
            text: dosageText,
            ...(clean(m.route) ? { route: concept(clean(m.route)) } : {}),
            ...(clean(m.frequency) ? { timing: { code: concept(clean(m.frequency)) } } : {}),
          },
        ],
      });
    }
  }
  if (include.includes('Observation')) {
    for (const o of found.observations.filter((x) => clean(x.name) && clean(x.value))) {
      const numeric = /^-?\d+(\.\d+)?$/.test(clean(o.value));
      resources.push({
        resourceType: 'Observation',
        id: uuid(text, 'Observation', o.name, o.value),
        status: 'final',
        code: concept(clean(o.name)),
        subject,
        ...(numeric
          ? { valueQuantity: { value: Number(o.value), ...(clean(o.unit) ? { unit: clean(o.unit) } : {}) } }
          : { valueString: [o.value, o.unit].map(clean).filter(Boolean).join(' ') }),
      });
    }
  }
  return {
    resourceType: 'Bundle',
    id: uuid(text, 'Bundle'),
    type: 'collection',
    timestamp: new Date().toISOString(),
    entry: resources.map((resource) => ({ fullUrl: `urn:uuid:${resource.id}`, resource })),
  };
}
