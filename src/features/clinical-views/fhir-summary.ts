/**
 * One line about a FHIR resource, for the resource list of the FHIR view: a Patient's name, an Observation's
 * code and value, an Encounter's class and period… Reads the JSON loosely (values from any node), never throws.
 */

type J = Record<string, unknown>;

function obj(v: unknown): J | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as J) : undefined;
}
function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}

/** A CodeableConcept (or Coding, or array of them) as people read it: its text, else its first coding's display or code. */
export function conceptText(v: unknown): string | undefined {
  if (Array.isArray(v)) return v.map(conceptText).find(Boolean);
  const c = obj(v);
  if (!c) return undefined;
  if (str(c.text)) return str(c.text);
  if (str(c.display)) return str(c.display);
  for (const coding of arr(c.coding)) {
    const k = obj(coding);
    if (k && (str(k.display) || str(k.code))) return str(k.display) ?? str(k.code);
  }
  return str(c.code);
}

/** A HumanName (the first one, as the sender listed them): its text, else given names then family. */
export function nameText(v: unknown): string | undefined {
  const names = arr(v).map(obj).filter(Boolean) as J[];
  const n = names.find((x) => x.use !== 'old') ?? names[0];
  if (!n) return str(v);
  if (str(n.text)) return str(n.text);
  const parts = [...arr(n.given), n.family].map(str).filter(Boolean);
  return parts.length ? parts.join(' ') : undefined;
}

function quantity(v: unknown): string | undefined {
  const q = obj(v);
  if (!q || q.value === undefined) return undefined;
  return [str(q.comparator), str(q.value), str(q.unit) ?? str(q.code)].filter(Boolean).join(' ');
}

function money(v: unknown): string | undefined {
  const m = obj(v);
  return m && m.value !== undefined ? `${str(m.value)}${m.currency ? ` ${str(m.currency)}` : ''}` : undefined;
}

/** value[x] of an Observation (or a component). */
export function valueText(r: J): string | undefined {
  if (r.valueQuantity) return quantity(r.valueQuantity);
  if (r.valueCodeableConcept) return conceptText(r.valueCodeableConcept);
  for (const k of ['valueString', 'valueBoolean', 'valueInteger', 'valueDateTime', 'valueTime']) if (r[k] !== undefined) return str(r[k]);
  const range = obj(r.valueRange);
  if (range) return `${quantity(range.low) ?? ''}–${quantity(range.high) ?? ''}`;
  const ratio = obj(r.valueRatio);
  if (ratio) return `${quantity(ratio.numerator) ?? ''} / ${quantity(ratio.denominator) ?? ''}`;
  const comps = arr(r.component).map(obj).filter(Boolean) as J[];
  if (comps.length) return comps.map((c) => `${conceptText(c.code) ?? '?'} ${valueText(c) ?? ''}`.trim()).join(', ');
  return undefined;
}

function period(v: unknown): string | undefined {
  const p = obj(v);
  if (!p) return undefined;
  const start = str(p.start);
  const end = str(p.end);
  return start || end ? `${start ?? '…'} → ${end ?? '…'}` : undefined;
}

/** A Reference's display, else its reference when people can read it (`Patient/123`, not a `urn:uuid:`). */
function ref(v: unknown): string | undefined {
  const r = obj(v);
  if (!r) return undefined;
  const reference = str(r.reference);
  return str(r.display) ?? (reference && !reference.startsWith('urn:') ? reference : undefined);
}

function join(...parts: (string | undefined)[]): string {
  return parts.filter(Boolean).join(' · ');
}

function identifierText(v: unknown): string | undefined {
  for (const i of arr(v)) {
    const id = obj(i);
    if (id && str(id.value)) return `id ${str(id.value)}`;
  }
  return undefined;
}

/** The one-line summary of a resource (`""` when nothing stands out). */
export function resourceSummary(resource: unknown): string {
  const r = obj(resource);
  if (!r) return '';
  return summary(r) || join(identifierText(r.identifier), str(r.status));
}

function summary(r: J): string {
  switch (r.resourceType) {
    case 'Patient':
    case 'RelatedPerson':
    case 'Practitioner':
    case 'Person':
      return join(nameText(r.name), str(r.gender), str(r.birthDate) && `born ${str(r.birthDate)}`);
    case 'Observation':
      return join(conceptText(r.code), valueText(r), str(r.effectiveDateTime) ?? str(r.issued), str(r.status));
    case 'Encounter':
      return join(conceptText(r.class) ?? str(obj(r.class)?.code), conceptText(r.type), period(r.period), str(r.status));
    case 'Condition':
    case 'Procedure':
    case 'AllergyIntolerance':
    case 'DiagnosticReport':
    case 'ServiceRequest':
      return join(
        conceptText(r.code),
        str(r.onsetDateTime) ?? str(r.performedDateTime) ?? str(r.recordedDate) ?? str(r.authoredOn),
        conceptText(r.clinicalStatus) ?? str(r.status),
      );
    case 'MedicationRequest':
    case 'MedicationAdministration':
    case 'MedicationStatement':
      return join(conceptText(r.medicationCodeableConcept) ?? ref(r.medicationReference), str(r.authoredOn), str(r.status));
    case 'Medication':
      return join(conceptText(r.code));
    case 'Device':
      return join(str(obj(arr(r.deviceName)[0])?.name), str(r.manufacturer), str(obj(arr(r.version)[0])?.value));
    case 'Immunization':
      return join(conceptText(r.vaccineCode), str(r.occurrenceDateTime), str(r.status));
    case 'Organization':
    case 'Location':
    case 'HealthcareService':
      return join(str(r.name), conceptText(r.type));
    case 'PractitionerRole':
      return join(ref(r.practitioner), conceptText(r.code), ref(r.organization));
    case 'Claim':
      return join(conceptText(r.type), money(r.total) && `total ${money(r.total)}`, `${arr(r.item).length} item(s)`, ref(r.patient));
    case 'ExplanationOfBenefit':
      return join(conceptText(r.type), str(r.outcome), money(obj(r.payment)?.amount) && `paid ${money(obj(r.payment)?.amount)}`, ref(r.patient));
    case 'Coverage':
      return join(conceptText(r.type), str(r.subscriberId), ref(arr(r.payor)[0]));
    case 'MessageHeader':
      return join(conceptText(r.eventCoding), ref(obj(r.source)) ?? str(obj(r.source)?.name));
    case 'Appointment':
      return join(conceptText(r.serviceType), str(r.start), str(r.status));
    case 'DocumentReference':
      return join(conceptText(r.type), str(r.date), str(r.status));
    case 'Provenance':
      return join(conceptText(r.activity), str(r.recorded));
    case 'OperationOutcome':
      return (arr(r.issue).map(obj).filter(Boolean) as J[]).map((i) => join(str(i.severity), str(i.diagnostics) ?? conceptText(i.details))).join('; ');
    case 'Bundle':
      return join(str(r.type), `${arr(r.entry).length} entries`);
    default:
      return join(conceptText(r.code) ?? str(r.name) ?? nameText(r.name), str(r.status));
  }
}
