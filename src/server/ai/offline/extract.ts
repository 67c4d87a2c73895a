import { sentences } from './text';

export interface Medication {
  name: string;
  dose?: string;
  route?: string;
  frequency?: string;
  text: string;
}
export interface Condition {
  name: string;
  negated: boolean;
  text: string;
}
export interface Code {
  system: 'ICD-10' | 'LOINC' | 'SNOMED' | 'RxNorm';
  code: string;
  text: string;
}
export interface Observation {
  name: string;
  value: string;
  unit?: string;
  text: string;
}
export interface Extraction {
  medications: Medication[];
  conditions: Condition[];
  observations: Observation[];
  dates: string[];
  codes: Code[];
}

const DOSE = String.raw`(\d+(?:\.\d+)?\s?(?:mg|mcg|g|ml|mL|units?|IU|meq|mEq|%)(?:\/\w+)?)`;
const ROUTE =
  String.raw`(?:\b(po|p\.o\.|by mouth|orally|oral|iv|intravenous(?:ly)?|im|intramuscular(?:ly)?|sc|` +
  String.raw`subcut(?:aneous(?:ly)?)?|sq|topical(?:ly)?|inhaled|sublingual|sl|pr|rectal(?:ly)?)\b)`;
const FREQ =
  String.raw`(?:\b(once daily|twice daily|three times daily|four times daily|daily|nightly|at bedtime|` +
  String.raw`every\s+\d+\s*(?:hours?|hrs?|h)|q\d+h|qd|bid|tid|qid|qhs|prn|as needed|weekly|monthly)\b)`;
/** A drug name followed by a dose: "metformin 500 mg po bid", "Lisinopril 10mg daily". */
const MED = new RegExp(
  String.raw`\b([A-Za-z][A-Za-z-]{2,}(?:\s+(?:hydrochloride|hcl|sodium|potassium|er|xr|sr))?)\s+${DOSE}` +
    String.raw`(?:\s*(?:tablets?|tabs?|capsules?|caps?))?(?:\s+${ROUTE})?(?:\s+${FREQ})?(?:\s+${FREQ})?`,
  'gi',
);
const NOT_DRUG = /^(take|takes|taking|given|give|dose|total|about|of|and|with|was|is|at|on|to|for|level|value|result|weight|glucose|sodium|potassium)$/i;

/** Known condition words and phrases (a rule list, not a terminology server). */
const CONDITIONS = [
  'hypertension',
  'diabetes(?: mellitus)?(?: type (?:1|2|i|ii))?',
  'type (?:1|2) diabetes(?: mellitus)?',
  'hyperlipidemia',
  'hypercholesterolemia',
  'asthma',
  'copd',
  'chronic obstructive pulmonary disease',
  'pneumonia',
  'bronchitis',
  'sinusitis',
  'pharyngitis',
  'otitis media',
  'urinary tract infection',
  'uti',
  'myocardial infarction',
  'heart failure',
  'congestive heart failure',
  'atrial fibrillation',
  'coronary artery disease',
  'angina',
  'stroke',
  'chronic kidney disease',
  'renal failure',
  'anemia',
  'obesity',
  'depression',
  'anxiety',
  'dementia',
  "alzheimer(?:'s)? disease",
  'osteoarthritis',
  'rheumatoid arthritis',
  'osteoporosis',
  'hypothyroidism',
  'hyperthyroidism',
  'sepsis',
  'cellulitis',
  'fracture(?: of \w+)?',
  'migraine',
  'seizure disorder',
  'epilepsy',
  'gerd',
  'gastroesophageal reflux disease',
  'cancer',
  'carcinoma',
  'neoplasm',
  'dehydration',
  'hypokalemia',
  'hyperkalemia',
  'hyponatremia',
  'chest pain',
  'abdominal pain',
  'shortness of breath',
  'fever',
  'cough',
  'headache',
  'viral infection',
  'covid-19',
  'influenza',
  'prediabetes',
  'sleep apnea',
  'concussion',
  'sprain of \w+',
  'allergic rhinitis',
];
const CONDITION = new RegExp(String.raw`\b(${CONDITIONS.join('|')})\b`, 'gi');
const NEGATION = /\b(no|denies|denied|without|negative for|ruled out|not)\b[^.;]{0,40}$/i;

const DATE = /\b(\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}\/\d{2,4}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2},? \d{4})\b/gi;
const CODES: Array<{ system: Code['system']; re: RegExp }> = [
  { system: 'LOINC', re: /\bLOINC[:\s#]*(\d{1,5}-\d)\b|\b(\d{3,5}-\d)\s*\(?LOINC\)?/gi },
  { system: 'SNOMED', re: /\bSNOMED(?:[- ]?CT)?[:\s#]*(\d{6,18})\b/gi },
  { system: 'RxNorm', re: /\bRx(?:Norm|CUI)[:\s#]*(\d{2,8})\b/gi },
  { system: 'ICD-10', re: /\bICD-?10(?:-CM)?[:\s#]*([A-TV-Z]\d{2}(?:\.\d{1,4}[A-Z]?)?)\b|\b([A-TV-Z]\d{2}\.\d{1,4})\b/g },
];
/** "BP 140/90 mmHg", "glucose 180 mg/dL", "temperature: 38.5 C", "HbA1c 7.2 %". */
const OBS = new RegExp(
  String.raw`\b(blood pressure|bp|heart rate|hr|pulse|temperature|temp|respiratory rate|rr|spo2|oxygen saturation|o2 sat|` +
    String.raw`weight|height|bmi|glucose|hba1c|a1c|hemoglobin|hgb|creatinine|potassium|sodium|cholesterol|ldl|hdl|` +
    String.raw`triglycerides|wbc|platelets)\b[:\s]*(?:of|was|is|=)?\s*(\d+(?:\.\d+)?(?:\/\d+)?)\s*(mmhg|bpm|\/min|` +
    String.raw`°?\s?[cf]\b|%|kg|lb|lbs|cm|in|mg\/dl|mmol\/l|g\/dl|meq\/l|k\/ul|kg\/m2)?`,
  'gi',
);

const tidy = (s: string) => s.replace(/\s+/g, ' ').trim();

export function extractClinical(text: string): Extraction {
  const clean = text.replace(/\\\.br\\/g, '\n');
  const medications: Medication[] = [];
  for (const m of clean.matchAll(MED)) {
    if (NOT_DRUG.test(m[1]!)) continue;
    const name = tidy(m[1]!).toLowerCase();
    if (medications.some((x) => x.name === name && x.dose === m[2])) continue;
    medications.push({
      name,
      dose: tidy(m[2]!),
      ...(m[3] ? { route: m[3].toLowerCase() } : {}),
      ...(m[4] || m[5] ? { frequency: [m[4], m[5]].filter(Boolean).join(' ').toLowerCase() } : {}),
      text: tidy(m[0]),
    });
  }
  const conditions: Condition[] = [];
  for (const s of sentences(clean)) {
    for (const m of s.matchAll(CONDITION)) {
      const name = m[1]!.toLowerCase();
      if (conditions.some((c) => c.name === name)) continue;
      conditions.push({ name, negated: NEGATION.test(s.slice(0, m.index)), text: s });
    }
  }
  const observations: Observation[] = [];
  for (const m of clean.matchAll(OBS))
    observations.push({ name: m[1]!.toLowerCase(), value: m[2]!, ...(m[3] ? { unit: m[3].replace(/\s/g, '') } : {}), text: tidy(m[0]) });
  const dates = [...new Set([...clean.matchAll(DATE)].map((m) => m[1]!))];
  const codes: Code[] = [];
  for (const { system, re } of CODES) {
    for (const m of clean.matchAll(re)) {
      const code = (m[1] ?? m[2])!;
      if (!codes.some((c) => c.system === system && c.code === code)) codes.push({ system, code, text: tidy(m[0]) });
    }
  }
  return { medications, conditions, observations, dates, codes };
}
