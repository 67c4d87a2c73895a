import { getNodeType } from '@/engine/nodes';
import { validateDefinition } from '@/engine/validate';
import type { PipelineDefinition } from '@/shared/pipeline';
import { dryRun, type DryRunStatus } from './dry-run';
import { runEditChecks, type EditAnswer } from './edit-check';
import { BASES, type EditEvalRequest } from './edit-fixtures';

export interface EditPlanner {
  name: string;
  edit(definition: PipelineDefinition, request: string, options: { connectors?: { name: string; type: string }[] }): EditAnswer | Promise<EditAnswer>;
}

export interface EditScore {
  requests: number;
  valid: number;
  passed: number;
  total: number;
  dryRuns: Record<DryRunStatus, number>;
  withSample: number;
}

const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);

/**
 * Scores an edit planner on a set of edit requests: each result validated by the engine, checked for what the
 * request asked, and dry-run on the base pipeline's sample in test mode. `detail: false` prints only the totals
 * (the held-out set is never read request by request while tuning).
 */
export async function evaluateEdits(
  planner: EditPlanner,
  label: string,
  requests: EditEvalRequest[],
  opts: { detail: boolean; verbose?: boolean },
): Promise<EditScore> {
  const score: EditScore = {
    requests: requests.length,
    valid: 0,
    passed: 0,
    total: 0,
    dryRuns: { ok: 0, failed: 0, 'needs-connector': 0, 'needs-agent': 0 },
    withSample: 0,
  };
  console.log(`${planner.name}: edit requests (${label}), ${requests.length}\n`);
  for (const r of requests) {
    const base = structuredClone(BASES[r.base].definition);
    const answer = await planner.edit(structuredClone(base), r.request, { connectors: r.connectors });
    const report = validateDefinition(answer.definition, getNodeType);
    const checks = runEditChecks(base, answer, r.checks);
    if (report.valid) score.valid++;
    score.passed += checks.passed;
    score.total += checks.total;
    const sample = r.sample ?? BASES[r.base].sample;
    let run = '';
    if (sample && !r.checks.refused) {
      score.withSample++;
      if (report.valid) {
        const d = await dryRun(answer.definition, sample, r.id);
        score.dryRuns[d.status]++;
        run = d.status + (d.status === 'ok' ? '' : ` (${d.detail})`);
      } else {
        score.dryRuns.failed++;
        run = 'failed (not valid)';
      }
    }
    if (!opts.detail) continue;
    const mark = report.valid && checks.failed.length === 0 ? 'ok  ' : 'MISS';
    console.log(`${mark} ${r.id.padEnd(32)} valid=${report.valid ? 'yes' : 'NO '} checks ${checks.passed}/${checks.total}${run ? `  dry-run ${run}` : ''}`);
    for (const f of checks.failed) console.log(`       ✗ ${f}`);
    for (const e of report.errors) console.log(`       ✗ invalid: ${e.node_id ?? ''} ${e.code} ${e.message}`);
    if (opts.verbose) {
      for (const c of answer.changes) console.log(`       + ${c}`);
      for (const u of answer.unresolved) console.log(`       ? ${u}`);
      console.log(`       ${answer.definition.connections.map((c) => `${c.source}.${c.source_port}→${c.target}.${c.target_port}`).join('  ')}`);
    }
  }
  const setup = score.dryRuns['needs-connector'] + score.dryRuns['needs-agent'];
  console.log(`\n${planner.name}, edit requests (${label})`);
  console.log(`  valid:            ${score.valid}/${score.requests} (${pct(score.valid, score.requests)})`);
  console.log(`  checks passed:    ${score.passed}/${score.total} (${pct(score.passed, score.total)})`);
  console.log(
    `  dry run:          ${score.dryRuns.ok}/${score.withSample - setup} succeeded (${pct(score.dryRuns.ok, score.withSample - setup)}); ` +
      `${score.dryRuns.failed} failed; needs a connector: ${score.dryRuns['needs-connector']}, an agent: ${score.dryRuns['needs-agent']}\n`,
  );
  return score;
}
