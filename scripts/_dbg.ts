import { editPipeline } from '@/server/copilot/edit';
import { BASES } from '@/server/copilot/eval/edit-fixtures';
const [base, ...rest] = process.argv.slice(2);
const r = editPipeline(structuredClone(BASES[base as keyof typeof BASES].definition), rest.join(' '), { connectors: [] });
console.log(r.changes, r.unresolved, r.validation.valid, r.validation.errors, r.definition.connections.map((c) => `${c.source}.${c.source_port}>${c.target}.${c.target_port}`).join(' '));
