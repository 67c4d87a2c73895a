import type { BuiltinTool } from '../tool-types';
import { deidentifyText } from './deidentify-text';
import { fhirSearch } from './fhir-search';
import { hl7v2Parse } from './hl7v2-parse';
import { runPipeline } from './run-pipeline';
import { terminologyLookup } from './terminology-lookup';

/** The tools Clinflow ships, by id. */
export const BUILTIN_TOOLS: readonly BuiltinTool[] = [fhirSearch, terminologyLookup, runPipeline, hl7v2Parse, deidentifyText];

export function builtinTool(id: string): BuiltinTool | undefined {
  return BUILTIN_TOOLS.find((t) => t.id === id);
}
