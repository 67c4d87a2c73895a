import { generateText, NoObjectGeneratedError, Output } from 'ai';
import { z } from 'zod';
import { formatIssue, validateFhir } from '@/clinical/fhir/validate';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { clinicalExtract } from './clinical-extract';
import { type Found, toBundle } from './clinical-extract.fhir';
import { llmFailure, recordUsage } from './llm-prompt.usage';
import { inputText } from './summarize.execute';

/** What the model is asked for (strict-mode friendly: every field required, strings may be empty). */
const FoundSchema = z.object({
  conditions: z
    .array(z.object({ name: z.string().describe('The condition or diagnosis, as written') }))
    .describe('Conditions the patient has (not the negated ones)'),
  medications: z
    .array(z.object({ name: z.string(), dose: z.string(), route: z.string(), frequency: z.string() }))
    .describe('Medications, with dose, route and frequency as written (empty when not given)'),
  observations: z.array(z.object({ name: z.string(), value: z.string(), unit: z.string() })).describe('Measured values: vital signs and lab results'),
}) satisfies z.ZodType<Found>;

const INSTRUCTIONS = [
  'Extract the conditions (leave out negated ones), medications and observations from the clinical text. Copy names, doses, routes,',
  'frequencies, values and units as written; use an empty string when one is not given. Do not add anything the text does not say.',
].join(' ');

function subjectOf(input: unknown, configured?: string): { reference: string } | undefined {
  if (configured) return { reference: configured };
  if (!input || typeof input !== 'object') return undefined;
  const i = input as { patient_reference?: unknown; patient?: { resourceType?: unknown; id?: unknown } };
  if (typeof i.patient_reference === 'string' && i.patient_reference) return { reference: i.patient_reference };
  if (i.patient?.resourceType === 'Patient' && typeof i.patient.id === 'string') return { reference: `Patient/${i.patient.id}` };
  return undefined;
}

export const clinicalExtractNode = implementNode(clinicalExtract, {
  async execute(ctx, inputs, config) {
    const text = inputText(inputs.text);
    const model = ctx.services.languageModel(config.model);
    const subject = subjectOf(inputs.text, config.patient_reference);
    if (!subject)
      ctx.log('warn', 'no patient reference (config patient_reference, or the input\'s patient_reference or patient): subjects say "patient not identified"');
    const started = performance.now();
    let found: Found;
    let usage;
    try {
      const r = await generateText({
        model,
        instructions: INSTRUCTIONS,
        prompt: text,
        output: Output.object({ schema: FoundSchema }),
        abortSignal: ctx.signal,
        maxRetries: 1,
        temperature: 0,
      });
      found = r.output;
      usage = recordUsage(ctx, config.model, r.usage, started);
    } catch (e) {
      if (NoObjectGeneratedError.isInstance(e))
        throw new NodeError('LLM_OUTPUT_INVALID', `The model did not answer with conditions, medications and observations: ${e.message}`.slice(0, 1000));
      llmFailure(e);
    }
    const bundle = toBundle(text, found, subject ?? { display: 'patient not identified' }, config.include);
    const errors = validateFhir(bundle).filter((i) => i.severity === 'error');
    if (errors.length) throw new NodeError('FHIR_INVALID', `The extracted resources are not valid FHIR R4: ${errors.slice(0, 10).map(formatIssue).join('; ')}`);
    const counts = config.include.map((t) => `${bundle.entry.filter((e) => e.resource.resourceType === t).length} ${t}`).join(', ');
    ctx.log('info', `extracted ${counts}`);
    return { outputs: { bundle, usage } };
  },
});
