export * from './auth';
export * from './orgs';
export * from './pipelines';
export * from './rate-limits';
export * from './executions';
export * from './connectors';
export * from './agents';
export * from './copilot';
