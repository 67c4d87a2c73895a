/**
 * The concrete change that answers a copilot finding, as a modify request (what /copilot/suggestions stores and
 * /copilot/modify/pipeline makes); findings with no automatic change give none. Shared by the server's
 * suggestions and the editor's "Fix" buttons, so Fix shows exactly where a suggestion would exist.
 */
export function copilotFixFor(f: { node_id: string | null; code: string }): { title: string; change: string } | undefined {
  switch (f.code) {
    case 'PHI_TO_EXTERNAL_LLM':
      return f.node_id
        ? { title: `De-identify patient data before ${f.node_id} sends it to an external model`, change: `add de-identification before ${f.node_id}` }
        : undefined;
    case 'FHIR_NOT_VALIDATED':
      return f.node_id ? { title: `Validate the FHIR resources before ${f.node_id} writes them`, change: `add validation before ${f.node_id}` } : undefined;
    case 'WRITE_WITHOUT_RETRY':
      return { title: 'Retry writes to outside systems (3 attempts; writes are idempotent)', change: 'retry writes 3 times' };
    default:
      return undefined;
  }
}
