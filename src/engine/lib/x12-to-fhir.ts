import type { Bundle } from '@medplum/fhirtypes';
import { readInterchange, X12SetError } from '@/clinical/x12';
import { NodeError } from '../node-error';
import type { NodeContext } from '../node-type';

type Interchange = ReturnType<typeof readInterchange>;

/**
 * The shared run of the X12 → FHIR nodes: reads the `x12-interchange` input, converts it, logs the warnings and
 * how many `main` resources came out; an interchange of another transaction set fails with `wrongSet`.
 */
export function x12ToFhir(
  ctx: NodeContext,
  value: unknown,
  convert: (ic: Interchange) => { bundle: Bundle; warnings: string[] },
  expect: { main: string; wrongSet: string; hint: string },
): { outputs: { bundle: Bundle } } {
  let ic: Interchange;
  try {
    ic = readInterchange(value);
  } catch (e) {
    throw new NodeError('X12_VALUE_INVALID', (e as Error).message);
  }
  try {
    const { bundle, warnings } = convert(ic);
    for (const w of warnings) ctx.log('warn', w);
    const main = bundle.entry?.filter((e) => e.resource?.resourceType === expect.main).length ?? 0;
    ctx.log('info', `${main} ${expect.main}(s), ${(bundle.entry?.length ?? 0) - main} related resource(s)`);
    return { outputs: { bundle } };
  } catch (e) {
    if (e instanceof X12SetError) throw new NodeError(expect.wrongSet, `${e.message}: ${expect.hint}`);
    throw e;
  }
}
