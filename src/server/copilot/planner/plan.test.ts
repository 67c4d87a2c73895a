import { describe, expect, it } from 'vitest';
import { getNodeType } from '@/engine/nodes';
import { validateDefinition } from '@/engine/validate';
import { runChecks } from '../../../../tests/eval/copilot/check';
import { dryRun } from '../../../../tests/eval/copilot/dry-run';
import { EVAL_REQUESTS } from '../../../../tests/eval/copilot/requests';
import { planPipeline, type Plan } from './index';

const valid = (p: Plan) => validateDefinition(p.pipeline, getNodeType);
const types = (p: Plan) => p.pipeline.nodes.map((n) => n.type);
const node = (p: Plan, type: string) => p.pipeline.nodes.find((n) => n.type === type)!;

/** The node types along the path the data takes from the trigger, following the first connection out of each node. */
function path(p: Plan): string[] {
  const ids: string[] = [];
  let at = p.pipeline.nodes[0]!.id;
  while (at && !ids.includes(at)) {
    ids.push(at);
    at = p.pipeline.connections.find((c) => c.source === at)?.target ?? '';
  }
  return ids.map((id) => p.pipeline.nodes.find((n) => n.id === id)!.type);
}

describe('planPipeline', () => {
  it('plans an ADT feed over MLLP to a FHIR server, in order, with the connector', () => {
    const plan = planPipeline('Receive ADT messages over MLLP on port 2575, convert them to FHIR, validate them and write them to the FHIR server.', {
      connectors: [{ name: 'Hospital FHIR', type: 'fhir' }],
    });
    expect(valid(plan).valid).toBe(true);
    expect(path(plan)).toEqual(['mllp-listener-trigger', 'hl7v2-to-fhir', 'fhir-validate', 'fhir-write', 'pipeline-output']);
    expect(node(plan, 'mllp-listener-trigger').config).toMatchObject({ port: 2575 });
    expect(node(plan, 'fhir-write').settings).toEqual({ retry: { max_attempts: 3, backoff_ms: 1000 } });
    expect(node(plan, 'fhir-write').config).toMatchObject({ connector: 'Hospital FHIR', operation: 'transaction' });
    expect(plan.unresolved).toEqual([]);
  });

  it('parses HL7 text before converting it, when a manual trigger gives the message as text', () => {
    const plan = planPipeline('Convert an HL7 v2 ADT A01 message into a FHIR R4 bundle.');
    expect(valid(plan).valid).toBe(true);
    expect(path(plan)).toEqual(['manual-trigger', 'hl7v2-parse', 'hl7v2-to-fhir', 'pipeline-output']);
    expect(node(plan, 'manual-trigger').config).toEqual({ fields: { message: 'text' } });
    expect(plan.reasoning.some((r) => r.includes('hl7v2-parse'))).toBe(true);
  });

  it('reads the schedule as a cron expression and starts with a FHIR query', () => {
    const plan = planPipeline('Every 15 minutes, poll the FHIR server for new lab Observations and return them.', {
      connectors: [{ name: 'EHR', type: 'fhir' }],
    });
    expect(valid(plan).valid).toBe(true);
    expect(node(plan, 'schedule-trigger').config).toEqual({ cron: '*/15 * * * *' });
    expect(path(plan).slice(0, 2)).toEqual(['schedule-trigger', 'fhir-query']);
    expect(node(plan, 'fhir-query').config).toMatchObject({ connector: 'EHR', query: expect.stringMatching(/^Observation\?category=laboratory/) });
    expect(planPipeline('Every day at 6, fetch Conditions from the EHR.').pipeline.nodes[0]!.config).toEqual({ cron: '0 6 * * *' });
  });

  it('reads from one FHIR server and writes to the other when two are given', () => {
    const plan = planPipeline('Nightly bulk export of Patient and Condition from the EHR, de-identify everything and write it to the research FHIR server.', {
      connectors: [
        { name: 'EHR', type: 'fhir' },
        { name: 'Research FHIR', type: 'fhir' },
      ],
    });
    expect(valid(plan).valid).toBe(true);
    expect(node(plan, 'schedule-trigger').config).toEqual({ cron: '0 2 * * *' });
    expect(node(plan, 'fhir-bulk-export').config).toMatchObject({ connector: 'EHR', types: ['Patient', 'Condition'] });
    expect(node(plan, 'fhir-write').config).toMatchObject({ connector: 'Research FHIR', operation: 'transaction' });
    // a bulk export gives a list of resources: it becomes a transaction Bundle before the write
    expect(types(plan)).toContain('jsonata-transform');
  });

  it('claims intake: parse, claim edits, then FHIR; rejected claims go to an output of their own', () => {
    const plan = planPipeline(
      'Claims intake: parse incoming 837 claim files, run claim edits, convert valid claims to FHIR and send rejected ones to a work queue output.',
    );
    expect(valid(plan).valid).toBe(true);
    expect(path(plan)).toEqual(['manual-trigger', 'x12-parse', 'claim-validate', 'x12-837-to-fhir', 'pipeline-output']);
    const edits = node(plan, 'claim-validate').id;
    const invalid = plan.pipeline.connections.find((c) => c.source === edits && c.source_port === 'invalid');
    expect(plan.pipeline.nodes.find((n) => n.id === invalid?.target)?.type).toBe('pipeline-output');
  });

  it('routes abnormal lab values with a condition, and what is normal to the FHIR server', () => {
    const plan = planPipeline(
      [
        'Receive ORU lab results over MLLP, convert them to FHIR, and route results with abnormal values to a review output;',
        'otherwise write them to the FHIR server.',
      ].join(' '),
    );
    expect(valid(plan).valid).toBe(true);
    const check = node(plan, 'condition');
    expect(check.config.expression).toContain('interpretation');
    // what is not abnormal is validated, then written
    const otherwise = plan.pipeline.connections.find((c) => c.source === check.id && c.source_port === 'false')!;
    const next = plan.pipeline.connections.find((c) => c.source === otherwise.target && c.source_port === 'valid')!;
    expect([otherwise.target, next.target].map((id) => plan.pipeline.nodes.find((n) => n.id === id)!.type)).toEqual(['fhir-validate', 'fhir-write']);
    expect(plan.unresolved.some((u) => u.includes('connector'))).toBe(true);
  });

  it('de-identifies before the language model sees the data', () => {
    const plan = planPipeline('Send FHIR Encounter bundles to GPT for a plain-language explanation, but remove PHI first.');
    expect(valid(plan).valid).toBe(true);
    expect(path(plan)).toEqual(['manual-trigger', 'fhir-deidentify', 'llm-prompt', 'pipeline-output']);
  });

  it('says what it could not fill: an agent to choose, a URL to give', () => {
    const plan = planPipeline('Send each referral note to our triage agent and notify the on-call team when it is urgent.');
    expect(valid(plan).valid).toBe(true);
    expect(path(plan).slice(0, 3)).toEqual(['manual-trigger', 'agent', 'condition']);
    expect(plan.unresolved.join('\n')).toMatch(/agent_id/);
    expect(plan.unresolved.join('\n')).toMatch(/url/);
  });

  it('leaves out what it cannot connect, and says so', () => {
    const plan = planPipeline('Every night at 2, parse the HL7 messages and convert them to FHIR.');
    expect(valid(plan).valid).toBe(true);
    expect(types(plan)).toEqual(['schedule-trigger', 'pipeline-output']);
    expect(plan.unresolved.join('\n')).toMatch(/hl7v2-parse: nothing in the plan gives what it takes/);
  });

  it('plans a pipeline that runs in test mode on a real ADT message', async () => {
    const plan = planPipeline('Convert ADT messages to FHIR, validate them and de-identify them for research.');
    const run = await dryRun(plan.pipeline, { file: 'hl7v2/messages/ADT-A01-01.hl7' }, 'planner-test');
    expect(run.status).toBe('ok');
    const bundle = run.outputs!.bundle as { resourceType: string; entry: { resource: { resourceType: string; name?: unknown } }[] };
    expect(bundle.resourceType).toBe('Bundle');
    const patient = bundle.entry.map((e) => e.resource).find((r) => r.resourceType === 'Patient');
    expect(patient).toBeDefined();
    expect(patient!.name).toBeUndefined();
  });

  it('gives the same plan for the same request', () => {
    const request = 'Import a CSV of lab results and filter the rows where value is above 5, returning them.';
    expect(planPipeline(request)).toEqual(planPipeline(request));
    expect(node(planPipeline(request), 'filter').config).toEqual({ expression: '$number(value) > 5' });
  });

  it('lays the nodes out left to right with readable ids', () => {
    const plan = planPipeline('Convert VXU immunization messages to FHIR and validate them.');
    const xs = path(plan).map((t) => node(plan, t).position.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(plan.pipeline.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(['start', 'parse', 'to_fhir', 'validate']));
  });

  it('plans something valid even for a request it cannot read', () => {
    const plan = planPipeline('Do the thing with the stuff.');
    expect(valid(plan).valid).toBe(true);
    expect(types(plan)).toEqual(['manual-trigger', 'pipeline-output']);
  });

  it('plans a valid pipeline for every request of the evaluation set, passing most of their checks', () => {
    let passed = 0;
    let total = 0;
    for (const r of EVAL_REQUESTS) {
      const plan = planPipeline(r.request, { connectors: r.connectors });
      expect({ id: r.id, errors: valid(plan).errors }).toEqual({ id: r.id, errors: [] });
      const c = runChecks(plan.pipeline, r.checks);
      passed += c.passed;
      total += c.total;
    }
    expect(EVAL_REQUESTS.length).toBeGreaterThanOrEqual(40);
    expect(passed / total).toBeGreaterThanOrEqual(0.8);
  });
});
