import { runPipelineForTool } from '../custom-run';
import { type BuiltinTool, ToolError } from '../tool-types';

/** Runs one deployed pipeline of the caller's organization synchronously with the tool's input as its inputs. */
export const runPipeline: BuiltinTool = {
  id: 'run_pipeline',
  name: 'Run a pipeline',
  description: 'Run a deployed pipeline with the given inputs and return its outputs (e.g. convert an HL7 message to FHIR, validate a resource).',
  input_schema: {
    type: 'object',
    properties: { inputs: { type: 'object', description: "The pipeline's trigger inputs" } },
    additionalProperties: true,
  },
  config_schema: {
    type: 'object',
    properties: { pipeline_id: { type: 'string', description: 'Id of the deployed pipeline this tool runs' } },
    required: ['pipeline_id'],
  },
  async run(t, input, config) {
    const id = typeof config.pipeline_id === 'string' ? config.pipeline_id : '';
    if (!id)
      throw new ToolError('PIPELINE_REQUIRED', 'This agent\'s run_pipeline tool names no pipeline: assign it again with {"config": {"pipeline_id": "<id>"}}.');
    const inputs = input.inputs && typeof input.inputs === 'object' ? (input.inputs as Record<string, unknown>) : input;
    return runPipelineForTool(t, id, inputs);
  },
};
