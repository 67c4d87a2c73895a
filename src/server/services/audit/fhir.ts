import type { AuditEvent, AuditEventAgent } from '@medplum/fhirtypes';
import type { AuditRow } from './search';

/** FHIR R4 AuditEvent.action: Create, Read, Update, Delete, Execute. */
const VERB_ACTION: Record<string, AuditEvent['action']> = {
  create: 'C',
  read: 'R',
  save: 'U',
  update: 'U',
  role: 'U',
  invite: 'C',
  deploy: 'U',
  undeploy: 'U',
  revoke: 'U',
  delete: 'D',
  remove: 'D',
  retry: 'E',
};

/** The RESTful interaction of an action (http://hl7.org/fhir/restful-interaction). */
const INTERACTION: Record<string, string> = { C: 'create', R: 'read', U: 'update', D: 'delete', E: 'operation' };

const SYSTEMS = {
  type: 'http://terminology.hl7.org/CodeSystem/audit-event-type',
  dicom: 'http://dicom.nema.org/resources/ontology/DCM',
  interaction: 'http://hl7.org/fhir/restful-interaction',
  action: 'urn:clinflow:audit-action',
  role: 'http://terminology.hl7.org/CodeSystem/extra-security-role-type',
  source: 'http://terminology.hl7.org/CodeSystem/security-source-type',
  entity: 'http://terminology.hl7.org/CodeSystem/audit-entity-type',
} as const;

/**
 * One audit entry as a FHIR R4 AuditEvent (what a hospital's own audit store takes): sign-ins as DICOM "User
 * Authentication" (110114) events, everything else as a RESTful operation with its interaction; the actor as the
 * requesting agent with its address; the object as the entity. Names and ids only, as in the entry itself.
 */
export function toFhirAuditEvent(r: AuditRow): AuditEvent {
  const [objectType = 'unknown', verb = ''] = r.action.split('.');
  const signIn = objectType === 'session';
  const action = signIn ? 'E' : (VERB_ACTION[verb] ?? 'E');
  const agent: AuditEventAgent = {
    type: {
      coding: [
        r.actorType === 'user'
          ? { system: SYSTEMS.role, code: 'humanuser', display: 'human user' }
          : { system: SYSTEMS.role, code: 'dataprocessor', display: 'data processor' },
      ],
    },
    who: {
      ...(r.actorId ? { identifier: { system: `urn:clinflow:${r.actorType}`, value: r.actorId } } : {}),
      ...(r.actorName ? { display: r.actorName } : {}),
    },
    requestor: true,
    ...(r.address ? { network: { address: r.address, type: '2' as const } } : {}),
  };
  const detail = Object.entries(r.detail ?? {}).filter(([, v]) => v !== null && v !== undefined);
  return {
    resourceType: 'AuditEvent',
    id: r.id,
    type: signIn
      ? { system: SYSTEMS.dicom, code: '110114', display: 'User Authentication' }
      : { system: SYSTEMS.type, code: 'rest', display: 'RESTful Operation' },
    subtype: [
      signIn ? { system: SYSTEMS.dicom, code: '110122', display: 'Login' } : { system: SYSTEMS.interaction, code: INTERACTION[action!] },
      { system: SYSTEMS.action, code: r.action },
    ],
    action,
    recorded: r.at.toISOString(),
    outcome: r.outcome === 'success' ? '0' : '4',
    ...(r.outcome === 'failure' && typeof r.detail?.reason === 'string' ? { outcomeDesc: r.detail.reason } : {}),
    agent: [agent],
    source: {
      ...(r.orgId ? { site: r.orgId } : {}),
      observer: { display: 'Clinflow' },
      type: [{ system: SYSTEMS.source, code: '4', display: 'Application Server' }],
    },
    entity: [
      {
        what: {
          ...(r.objectId ? { identifier: { system: `urn:clinflow:${r.objectType ?? objectType}`, value: r.objectId } } : {}),
          ...(r.objectName ? { display: r.objectName } : {}),
        },
        type: { system: SYSTEMS.entity, code: '2', display: 'System Object' },
        ...(detail.length ? { detail: detail.map(([type, v]) => ({ type, valueString: String(v) })) } : {}),
      },
    ],
  };
}
