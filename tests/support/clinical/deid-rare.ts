type Json = Record<string, unknown>;

const text = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const ref = (reference: string, display?: string) => ({ reference, ...(display ? { display } : {}) });

/**
 * Valid FHIR R4 resources the samples do not have, each reaching a rule of the preset the samples never do (or
 * several rules at one value): payer and device numbers, backbone strings of person resources, binary and text
 * attachments, narratives, notes, contained resources, maiden-name and geolocation extensions, dates in odd places.
 */
export function rareResources(): Json[] {
  const patient = {
    resourceType: 'Patient',
    id: 'rare-p',
    text: {
      status: 'generated',
      div: '<div xmlns="http://www.w3.org/1999/xhtml"><a href="mailto:jane@roe.org" title="Jane Roe">Jane Roe</a>, MRN 77123</div>',
    },
    extension: [
      { url: 'http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName', valueString: 'Smithers' },
      { url: 'http://example.org/nickname', valueString: 'Janie Roe 555-201-3344' },
    ],
    identifier: [{ type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }] }, value: '77123' }],
    name: [{ family: 'Roe', given: ['Jane', 'Q.'] }],
    telecom: [
      { system: 'email', value: 'jane@roe.org' },
      { system: 'phone', value: '(555) 201-3344' },
    ],
    gender: 'female',
    birthDate: '1931-04-05',
    deceasedDateTime: '2024-03-02T10:00:00-05:00',
    address: [
      {
        line: ['12 Elm St'],
        city: 'Emporia',
        state: 'KS 66801',
        postalCode: '66801-2504',
        country: 'US',
        extension: [
          {
            url: 'http://hl7.org/fhir/StructureDefinition/geolocation',
            extension: [
              { url: 'latitude', valueDecimal: 38.4 },
              { url: 'longitude', valueDecimal: -96.2 },
            ],
          },
        ],
      },
      { line: ['1 Rue Ste-Catherine'], city: 'Montréal', state: 'Québec', postalCode: 'H3B 1A7', country: 'Canada', period: { start: '2001-02' } },
    ],
    contact: [{ name: { text: 'John Roe' }, telecom: [{ system: 'phone', value: '555-777-1212' }], gender: 'male' }],
    contained: [{ resourceType: 'Practitioner', id: 'pr1', name: [{ family: 'Welby' }], birthDate: '1950-06-07' }],
    generalPractitioner: [ref('#pr1', 'Dr. Marcus Welby')],
  };
  return [
    patient,
    { resourceType: 'RelatedPerson', id: 'rp', patient: ref('Patient/rare-p'), birthDate: '1960-01-02', name: [{ text: 'John Roe' }] },
    { resourceType: 'Person', id: 'pe', birthDate: '1899', link: [{ target: ref('Patient/rare-p') }] },
    { resourceType: 'Practitioner', id: 'pr', birthDate: '1970-11-12', qualification: [{ code: { text: 'MD' }, period: { end: '2030-01-01' } }] },
    {
      resourceType: 'Coverage',
      id: 'cov',
      status: 'active',
      subscriberId: 'SUB-99-123',
      dependent: '02',
      beneficiary: ref('Patient/rare-p'),
      payor: [ref('Organization/org', 'Blue Plan')],
      class: [{ type: { text: 'group' }, value: 'GRP-555', name: 'Roe family plan' }],
      costToBeneficiary: [{ valueMoney: { value: 20, currency: 'USD' }, exception: [{ type: { text: 'x' }, period: { start: '2020-01-01' } }] }],
    },
    { resourceType: 'Account', id: 'acc', status: 'active', name: 'Jane Roe account 4411', subject: [ref('Patient/rare-p')], description: 'for Jane Roe' },
    {
      resourceType: 'Claim',
      id: 'cl',
      status: 'active',
      type: { text: 'professional' },
      use: 'claim',
      patient: ref('Patient/rare-p'),
      created: '2020-03-04',
      provider: ref('Practitioner/pr'),
      priority: { text: 'normal' },
      insurance: [{ sequence: 1, focal: true, coverage: ref('Coverage/cov'), preAuthRef: ['PA-1', 'PA-2'], businessArrangement: 'BA 9' }],
    },
    {
      resourceType: 'ClaimResponse',
      id: 'cr',
      status: 'active',
      type: { text: 'x' },
      use: 'claim',
      patient: ref('Patient/rare-p'),
      created: '2020-03-05',
      insurer: ref('Organization/org'),
      outcome: 'complete',
      preAuthRef: 'PA-1',
    },
    {
      resourceType: 'ExplanationOfBenefit',
      id: 'eob',
      status: 'active',
      type: { text: 'x' },
      use: 'claim',
      patient: ref('Patient/rare-p'),
      created: '2020-03-06',
      insurer: ref('Organization/org'),
      provider: ref('Practitioner/pr'),
      outcome: 'complete',
      preAuthRef: ['PA-3'],
      insurance: [{ focal: true, coverage: ref('Coverage/cov'), preAuthRef: ['PA-4'] }],
    },
    {
      resourceType: 'AuditEvent',
      id: 'ae',
      type: { code: 'rest' },
      recorded: '2020-03-07T08:09:10Z',
      agent: [{ requestor: true, altId: 'jroe', who: ref('Patient/rare-p'), network: { address: '10.1.2.3', type: '2' } }],
      source: { observer: ref('Device/dev') },
    },
    {
      resourceType: 'Device',
      id: 'dev',
      udiCarrier: [{ deviceIdentifier: '00844588003288', carrierHRF: '{01}00844588003288' }],
      distinctIdentifier: 'D-77',
      serialNumber: 'SN-2020-01-02',
      lotNumber: 'LOT-9',
      manufactureDate: '2019-05-06',
      patient: ref('Patient/rare-p'),
      note: [{ text: 'implanted 2020-01-02 for Jane Roe, call 555-201-3344', time: '2020-01-02' }],
    },
    {
      resourceType: 'Immunization',
      id: 'imm',
      status: 'completed',
      vaccineCode: { text: 'flu' },
      patient: ref('Patient/rare-p'),
      occurrenceDateTime: '2020-10-01',
      lotNumber: 'FLU-1',
    },
    { resourceType: 'Medication', id: 'med', code: { text: 'x' }, batch: { lotNumber: 'B-1', expirationDate: '2022-01-01' } },
    { resourceType: 'Binary', id: 'bin', contentType: 'text/plain', data: text('Jane Roe seen 2020-01-02, phone 555-201-3344') },
    { resourceType: 'Binary', id: 'bin2', contentType: 'image/png', data: 'iVBORw0KGgo=' },
    {
      resourceType: 'DocumentReference',
      id: 'doc',
      status: 'current',
      subject: ref('Patient/rare-p', 'Jane Roe'),
      date: '2020-01-02T03:04:05Z',
      content: [
        {
          attachment: {
            contentType: 'text/plain; charset=utf-8',
            data: text('Note on Jane Roe (MRN 77123), born 4/5/1931, 93 years old'),
            url: 'http://x.org/a',
          },
        },
        { attachment: { contentType: 'application/pdf', data: 'JVBERi0=', title: 'Roe scan 2020-01-02', creation: '2020-01-02' } },
      ],
    },
    { resourceType: 'Organization', id: 'org', name: 'Blue Plan of Emporia', alias: ['BPE'] },
    { resourceType: 'Organization', id: 'org2', name: 'Newman Regional Health' },
    { resourceType: 'Location', id: 'loc', name: 'Ward 5', alias: ['W5'], position: { longitude: -96.2, latitude: 38.4 }, description: 'Jane Roe room' },
    {
      resourceType: 'Provenance',
      id: 'prov',
      target: [ref('Observation/x'), ref('Patient/rare-p')],
      recorded: '2020-01-02T03:04:05Z',
      agent: [{ who: ref('Practitioner/pr') }],
    },
    {
      resourceType: 'Observation',
      id: 'obs',
      status: 'final',
      code: { text: 'note' },
      focus: [ref('urn:uuid:9b1c0e2e-0000-4000-8000-000000000001')],
      valueString: 'Jane said 2020-01-02 www.roe.org',
      effectivePeriod: { start: '2020-01-02', end: '2020-01-03T04:05:06+02:00' },
      note: [{ authorReference: ref('Practitioner/pr', 'Dr. Welby'), text: 'Roe family, SSN 123-45-6789' }],
    },
  ];
}
