import { router } from '@/server/api/trpc';
import { analyzeOne } from './analyze';
import { apply } from './apply-suggestion';
import { autoConfigurePipeline } from './auto-configure';
import { chat } from './chat';
import { configureNode } from './configure-node';
import { fhirQueries } from './fhir-queries';
import { agent } from './generate-agent';
import { code } from './generate-code';
import { generate } from './generate-pipeline';
import { health } from './health';
import { hl7Mapping } from './hl7-mapping';
import { infer } from './infer-schema';
import { insights } from './insights';
import { modifyPipelineOp } from './modify';
import { docs } from './pipeline-docs';
import { refinePipeline } from './refine';
import { suggestions } from './suggestions';
import { validatePipeline } from './validate';

/** The copilot (issue 10): one procedure per file; their OpenAPI texts are in docs.ts. */
export const copilotRouter = router({
  chat,
  generate,
  code,
  docs,
  infer,
  hl7Mapping,
  health,
  suggestions,
  applySuggestion: apply,
  refine: refinePipeline,
  modify: modifyPipelineOp,
  configureNode,
  autoConfigure: autoConfigurePipeline,
  validatePipeline,
  fhirQueries,
  agent,
  analyze: analyzeOne,
  insights,
});
