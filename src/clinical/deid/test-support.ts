import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fhirPath } from '@/clinical/fhir/fhirpath';
import { parseMessage } from '@/clinical/hl7v2';
import { convertMessage } from '@/clinical/hl7v2-fhir';

type Json = Record<string, unknown>;

/** The Synthea sample (/work/shared/data/synthea-10): every resource of every ndjson file. */
export function syntheaResources(root = process.env.BENCH_ROOT ?? process.cwd()): Json[] {
  const dir = path.resolve(root, '../shared/data/synthea-10');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ndjson'))
    .sort()
    .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Json));
}

/**
 * The sample as a system would send it: one collection Bundle per patient (the Patient and every resource whose
 * subject or patient is that Patient), and the resources about no patient (organizations, practitioners…) alone.
 */
export function syntheaRecords(resources = syntheaResources()): Json[] {
  const byPatient = new Map<string, Json[]>();
  const alone: Json[] = [];
  for (const r of resources) {
    const ref = ((r.subject ?? r.patient) as Json | undefined)?.reference;
    const id = r.resourceType === 'Patient' ? (r.id as string) : typeof ref === 'string' && ref.startsWith('Patient/') ? ref.slice(8) : undefined;
    if (id === undefined) alone.push(r);
    else byPatient.set(id, [...(byPatient.get(id) ?? []), r]);
  }
  const bundles = [...byPatient.values()].map((rs) => ({ resourceType: 'Bundle', type: 'collection', entry: rs.map((resource) => ({ fullUrl: `urn:uuid:${resource.id as string}`, resource })) }));
  return [...bundles, ...alone];
}

/** The ADT sample messages (../shared/data/hl7v2/messages/ADT*) as the hl7v2-to-fhir node makes them: transaction Bundles. */
export function adtBundles(root = process.env.BENCH_ROOT ?? process.cwd()): Json[] {
  const dir = path.resolve(root, '../shared/data/hl7v2/messages');
  return readdirSync(dir)
    .filter((f) => f.startsWith('ADT') && f.endsWith('.hl7'))
    .sort()
    .map((f) => convertMessage(parseMessage(readFileSync(path.join(dir, f), 'utf8')), { bundleType: 'transaction' }).bundle as unknown as Json);
}

const PHI = {
  name: 'descendants().ofType(HumanName).select(family | given | text)',
  maidenName: "descendants().where(url = 'http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName').value",
  identifier: 'descendants().ofType(Identifier).value',
  address: 'descendants().ofType(Address).select(line | city)',
  telecom: 'descendants().ofType(ContactPoint).value',
  birthDate: 'descendants().select(birthDate)',
};

/** Every name, identifier value, resource id, address line and city, phone, email and birth date of the input. */
export function phiValues(input: unknown): Map<string, keyof typeof PHI | 'id' | 'placeName'> {
  const out = new Map<string, keyof typeof PHI | 'id' | 'placeName'>();
  const visit = (r: Json): void => {
    if (r.resourceType === 'Bundle') {
      for (const e of (r.entry as Json[] | undefined) ?? []) visit(e.resource as Json);
      return;
    }
    for (const [kind, expr] of Object.entries(PHI)) for (const v of fhirPath(expr)(r)) if (typeof v === 'string') out.set(v, kind as keyof typeof PHI);
    if (typeof r.id === 'string') out.set(r.id, 'id');
    if ((r.resourceType === 'Organization' || r.resourceType === 'Location') && typeof r.name === 'string') out.set(r.name, 'placeName');
  };
  visit(input as Json);
  return out;
}

/** The output as a reader sees it: its JSON, plus every base64 attachment decoded. */
export function readable(output: unknown): string {
  const json = JSON.stringify(output);
  const decoded = [...json.matchAll(/"data":"([A-Za-z0-9+/=]+)"/g)].map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'));
  return [json, ...decoded].join('\n').toLowerCase();
}
