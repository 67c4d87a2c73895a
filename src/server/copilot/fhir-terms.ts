/** Words that name a FHIR R4 resource type in a request, most specific first. */
export const RESOURCE_WORDS: Array<[RegExp, string]> = [
  [/\b(immuni[sz]ations?|vaccin\w*|shots?)\b/, 'Immunization'],
  [/\b(allerg\w*)\b/, 'AllergyIntolerance'],
  [/\b(appointments?)\b/, 'Appointment'],
  [/\b(claims?)\b/, 'Claim'],
  [/\b(coverage|insurance)\b/, 'Coverage'],
  [/\b(diagnostic reports?|reports?)\b/, 'DiagnosticReport'],
  [/\b(documents?|notes?|discharge summar\w*)\b/, 'DocumentReference'],
  [/\b(procedures?|surger\w*|operations?)\b/, 'Procedure'],
  [/\b(medications?|prescri\w*|drugs?|meds)\b/, 'MedicationRequest'],
  [/\b(encounters?|visits?|admissions?|admitted|stays?|hospitali[sz]ations?)\b/, 'Encounter'],
  [/\b(conditions?|diagnos[ie]s|diagnosed|problems?|diseases?)\b/, 'Condition'],
  [/\b(observations?|labs?|lab results?|laborator\w*|results?|vitals?|vital signs?|measurements?|readings?)\b/, 'Observation'],
  [/\b(practitioners?|doctors?|physicians?|clinicians?|providers?)\b/, 'Practitioner'],
  [/\b(patients?|people|persons?|members?)\b/, 'Patient'],
];

const SCT = 'http://snomed.info/sct';
const LOINC = 'http://loinc.org';

/** Conditions by common name → SNOMED CT (well-known concept ids). */
export const CONDITION_CODES: Array<[RegExp, string, string]> = [
  [/\b(type 2 diabetes|diabetes mellitus type 2|t2dm|diabet\w*)\b/, `${SCT}|44054006`, 'type 2 diabetes mellitus'],
  [/\b(hypertension|high blood pressure)\b/, `${SCT}|38341003`, 'hypertension'],
  [/\b(asthma)\b/, `${SCT}|195967001`, 'asthma'],
  [/\b(copd|chronic obstructive)\b/, `${SCT}|13645005`, 'chronic obstructive lung disease'],
  [/\b(heart failure)\b/, `${SCT}|84114007`, 'heart failure'],
  [/\b(atrial fibrillation|afib|a-fib)\b/, `${SCT}|49436004`, 'atrial fibrillation'],
  [/\b(chronic kidney disease|ckd)\b/, `${SCT}|709044004`, 'chronic kidney disease'],
  [/\b(depression|depressive)\b/, `${SCT}|35489007`, 'depressive disorder'],
  [/\b(obes\w*)\b/, `${SCT}|414916001`, 'obesity'],
  [/\b(pneumonia)\b/, `${SCT}|233604007`, 'pneumonia'],
  [/\b(sepsis)\b/, `${SCT}|91302008`, 'sepsis'],
];

/** Observations by common name → LOINC. */
export const OBSERVATION_CODES: Array<[RegExp, string, string]> = [
  [/\b(hba1c|a1c|hemoglobin a1c|glycated hemoglobin)\b/, `${LOINC}|4548-4`, 'hemoglobin A1c'],
  [/\b(glucose|blood sugar)\b/, `${LOINC}|2345-7`, 'glucose in serum or plasma'],
  [/\b(blood pressure|bp)\b/, `${LOINC}|85354-9`, 'blood pressure panel'],
  [/\b(heart rate|pulse)\b/, `${LOINC}|8867-4`, 'heart rate'],
  [/\b(body weight|weight)\b/, `${LOINC}|29463-7`, 'body weight'],
  [/\b(body height|height)\b/, `${LOINC}|8302-2`, 'body height'],
  [/\b(bmi|body mass index)\b/, `${LOINC}|39156-5`, 'body mass index'],
  [/\b(creatinine)\b/, `${LOINC}|2160-0`, 'creatinine in serum or plasma'],
  [/\b(potassium)\b/, `${LOINC}|2823-3`, 'potassium in serum or plasma'],
  [/\b(sodium)\b/, `${LOINC}|2951-2`, 'sodium in serum or plasma'],
  [/\b(hemoglobin|haemoglobin|hgb)\b/, `${LOINC}|718-7`, 'hemoglobin in blood'],
  [/\b(cholesterol)\b/, `${LOINC}|2093-3`, 'cholesterol in serum or plasma'],
  [/\b(temperature|fever)\b/, `${LOINC}|8310-5`, 'body temperature'],
  [/\b(oxygen saturation|spo2|o2 sat\w*)\b/, `${LOINC}|59408-5`, 'oxygen saturation by pulse oximetry'],
  [/\b(respiratory rate)\b/, `${LOINC}|9279-1`, 'respiratory rate'],
];

/** The date search parameter of each type (R4). */
export const DATE_PARAM: Record<string, string> = {
  Observation: 'date',
  Condition: 'onset-date',
  MedicationRequest: 'authoredon',
  Encounter: 'date',
  Immunization: 'date',
  Procedure: 'date',
  DocumentReference: 'date',
  DiagnosticReport: 'date',
  AllergyIntolerance: 'date',
  Appointment: 'date',
  Claim: 'created',
};

export const ENCOUNTER_CLASS: Array<[RegExp, string]> = [
  [/\b(inpatient|admitted|admissions?|hospitali[sz]\w*)\b/, 'IMP'],
  [/\b(emergency|ed visits?|er visits?)\b/, 'EMER'],
  [/\b(outpatient|ambulatory|clinic visits?)\b/, 'AMB'],
];
