/**
 * The copilot operations' OpenAPI summaries and descriptions, kept out of the procedures (issue 29 item 7): long prose
 * reads better here, wrapped, than as one line of a procedure's metadata. Each text is its lines joined by a space.
 */
export const DOCS = {
  'generate-pipeline': {
    summary: ['Design a pipeline from a description: planned over the node catalog, validated, and dry-run in test mode on', 'sample_input'].join(' '),
    description: [
      "With a language model (model, or the server's COPILOT_MODEL) the LLM planner puts the catalog entries relevant to the",
      'request in the prompt and constrains the answer to the catalog (structured output: node types as an enum); the',
      "engine's validator checks it and, while it finds errors, the model is asked again with them (up to 3 answers).",
      'Without one, the offline planner finds nodes by catalog search and chains them by port types from a trigger to an',
      'output, filling configs from node defaults and values read in the request (cron expressions, FHIR resource types,',
      'connector names, fields, thresholds). A model that is not available is 400 MODEL_UNAVAILABLE or MODEL_NOT_FOUND; a',
      'model call that fails falls back to the offline planner (planner: offline, reasoning says why). validation is the',
      "validator's report on the proposal; dry_run (when sample_input is given and the proposal is valid) is a test-mode run",
      'that writes nothing and stores no execution. A proposal that could not be made valid is returned with its errors.',
    ].join(' '),
  },
  'generate-code': {
    summary: [
      'Code for a custom `code` node from a description: a JavaScript function body on `input`, syntax-checked and, with',
      "sample_input, run on it in the code node's sandbox",
    ].join(' '),
    description: [
      'The offline generator reads the request for the operations code nodes are written for — keep or drop records by a',
      'condition (above, below, is, before a date, older than, missing), drop duplicates by a field, sort by a field, count',
      'or group by a field, pick, rename or add fields (age from birthDate, a FHIR HumanName as text, BMI), convert units',
      '(glucose mg/dL↔mmol/L, lb↔kg, in↔cm, °F↔°C; a FHIR Quantity only where its unit matches), format dates (DD/MM/YYYY,',
      'YYYY-MM-DD, ISO, HL7 timestamps), flatten — and, given a sample, addresses its real field paths (`fields` says which',
      "word became which path; a FHIR Bundle's entries are read as entry[].resource). dry_run is the code run on",
      'sample_input in test mode exactly as the code node runs it (QuickJS sandbox, its time and memory limits): {ok: true,',
      'output, logs} or {ok: false, error, logs}; valid is false when the syntax check or the dry run failed. node is a',
      '`code` node config to place in a pipeline. 400 REQUEST_NOT_UNDERSTOOD (details: [{understood, examples}]) when the',
      'request names no operation it can make.',
    ].join(' '),
  },
  'configure-node': {
    summary: 'Generate the configuration of a node type from a description (over the config it has, if given)',
    description: [
      'Reads what the planner reads for the nodes it places: cron expressions, connectors of this organization, FHIR queries',
      "and resource types, thresholds, fields. valid says whether the result satisfies the node's config schema; missing",
      'lists what the description did not say.',
    ].join(' '),
  },
  'auto-configure': {
    summary: 'Configure the nodes of a pipeline that are not configured yet (invalid config, missing connector)',
    description: [
      "From the description (default: the pipeline's name and description), each node's input and the organization's",
      'connectors. Returns the definition with what changed and its validation; apply: true (with pipeline_id) saves it as',
      'the next version.',
    ].join(' '),
  },
  modify: {
    summary: [
      'Change a pipeline from a request in words (e.g. "add de-identification before the LLM step", "only keep female',
      'patients", "start this from a webhook instead"), validated; apply: true saves it when valid',
    ].join(' '),
    description: [
      'The edit planner works on the graph as it is: each clause of the request is one change — a step inserted between two,',
      'before or after one (named by id, label, type or what it does), a branch beside what is there, a step removed',
      "(reconnected around), moved or replaced, the trigger replaced, a filter with the sentence's test, a setting. New",
      'steps are chosen and configured from the node catalog and wired by port types. Every change is validated as it is',
      'made; what could not be done is listed in unresolved, in words. With sample_input, a valid result is dry-run in test',
      'mode. diff names the nodes added, removed, rewired and changed. With a language model (model, else COPILOT_MODEL) the',
      "model makes the edit with the validator's repair rounds. A result that is not valid is never saved.",
    ].join(' '),
  },
  chat: {
    summary: ['Chat with the copilot: design a pipeline, or change or review the one in context; stream: true answers with', 'Server-Sent Events'].join(' '),
    description: [
      'Events, in order: thinking {content} for each step taken; pipeline {name?, nodes, connections} for the generated or',
      'modified definition (a proposal: nothing is saved); validation {valid, errors, warnings}; dry_run {status, outputs,',
      'node_results} when a sample was run; message {content}, the answer in words; done {}. A failure during the stream is',
      'an error {error} event, then the stream closes. With context.pipeline_id, a message asking to check or review it gets',
      'the review; any other is a change to it.',
    ].join(' '),
  },
  suggestions: {
    summary: ['Improvement suggestions for a pipeline: each a concrete change with an id, applied with', '/copilot/suggestions/{id}/apply'].join(' '),
    description: [
      "From the copilot's checks on the current version: de-identification before external models, validation before FHIR",
      'writes, retries on writes. Stored; the open suggestions of earlier versions are replaced.',
    ].join(' '),
  },
  'apply-suggestion': {
    summary: "Apply a suggestion: the change is made and saved as the pipeline's next version",
    description: [
      '409 when the pipeline moved on since the suggestion was made, when it was applied already, or when the change would',
      'not give a valid pipeline (nothing is saved then).',
    ].join(' '),
  },
  refine: {
    summary: 'Optimize a pipeline: every suggested change made at once, validated; apply: true saves a valid result',
  },
  'pipeline-docs': {
    summary: [
      'Markdown documentation of a pipeline (pipeline_id or definition): how it starts, each step in order, what it writes,',
      "the checks' findings",
    ].join(' '),
  },
  'infer-schema': {
    summary: ['Infer a JSON Schema (draft-07) from one or more samples (genson-js): types merged, a field required when every sample', 'has it'].join(' '),
    description: [
      "fits says whether every sample validates against the result (the json-schema-validate node's validator); use the",
      "schema in that node or an llm-prompt node's output_schema.",
    ].join(' '),
  },
  'hl7-mapping': {
    summary: "HL7 v2 field → FHIR path rules from a sample message: where the conversion puts each field's value",
    description: [
      'Read back by tracing each field, component and sub-component value (3 characters or more) of the sample into the',
      'bundle hl7v2-to-fhir makes of it; untraced lists values found nowhere (changed on the way, e.g. coded values, or not',
      "mapped). A value repeated elsewhere in the message may show that field's paths too.",
    ].join(' '),
  },
  health: {
    summary: 'Which copilot planner answers, what it plans over, and the language models configured',
  },
  validate: {
    summary: [
      "Validate a pipeline definition: the engine's checks, and the copilot's (patient data to an external LLM without",
      'de-identification, FHIR written without validation, writes without retry)',
    ].join(' '),
    description: [
      "valid is the engine's verdict (errors stop a run or deploy); warnings include the copilot's checks. Limited to 30",
      'copilot requests per minute per user or API key.',
    ].join(' '),
  },
  'fhir-queries': {
    summary: 'FHIR R4 search request lines for a plain-language request (e.g. GET /Patient?family=smith&birthdate=ge1980-01-01)',
    description: [
      'Every parameter is an R4 search parameter of its resource type; conditions are coded in SNOMED CT and observations in',
      'LOINC where the request names a common one.',
    ].join(' '),
  },
  'generate-agent': {
    summary: 'Propose an agent configuration from a description (create: true also creates it)',
  },
  analyze: {
    summary: 'Analyze a pipeline (pipeline_id or definition) or an agent (agent_id) for issues',
  },
  insights: {
    summary: 'Usage patterns of an agent over 30 days (turns, failures, tokens, latency, tool calls) and recommendations',
  },
} as const;
