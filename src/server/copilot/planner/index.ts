/**
 * The copilot's offline planner (issue 10): a request in words → a pipeline definition, with the steps it
 * took and what it could not fill. No language model, no database: catalog search, port types, the
 * engine's validator. `planPipeline` is the entry point; `readSchedule` reads a schedule in words as cron.
 */
export { planPipeline, type Plan, type PlanOptions } from './plan';
export type { Connector } from './configure';
export { readSchedule, type Schedule } from './cron';
export { configureNode, type NodeConfiguration } from './configure-node';
