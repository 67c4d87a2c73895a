import { inArray, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { rowsOf } from '@/server/db/rows';
import { organizations, pipelines } from '@/server/db/schema';
import { orgDataSettings, resolveDataSettings, type DataSettings, type DataSettingsOverride } from '@/shared/data-settings';

/** A pipeline that has runs, and the retention its runs get. */
export interface RetentionTarget {
  orgId: string;
  pipelineId: string;
  /** Its name, or null when the pipeline was deleted (its runs stay, under the organization's settings). */
  name: string | null;
  settings: DataSettings;
}

/**
 * Every pipeline id that has runs, one index probe each (a loose scan of executions_pipeline_idx), whether or not the
 * pipeline still exists: a deleted pipeline's runs are kept as history and expire under its organization's settings.
 */
async function pipelinesWithRuns(db: Db): Promise<string[]> {
  const rows = rowsOf<{ pipeline_id: string }>(
    await db.execute(sql`with recursive ids as (
        (select pipeline_id from executions order by pipeline_id limit 1)
        union all
        select (select e.pipeline_id from executions e where e.pipeline_id > ids.pipeline_id order by e.pipeline_id limit 1)
        from ids where ids.pipeline_id is not null
      ) select pipeline_id from ids where pipeline_id is not null`),
  );
  return rows.map((r) => r.pipeline_id);
}

/**
 * What each pipeline with runs keeps for how long, resolved by the one rule (resolveDataSettings over orgDataSettings,
 * src/shared/data-settings.ts), so the pruner, the API and the editor agree. `orgId` keeps one organization's.
 */
export async function retentionTargets(db: Db, orgId?: string): Promise<RetentionTarget[]> {
  const ids = await pipelinesWithRuns(db);
  if (ids.length === 0) return [];
  const found = await db
    .select({ id: pipelines.id, orgId: pipelines.orgId, name: pipelines.name, dataSettings: pipelines.dataSettings })
    .from(pipelines)
    .where(inArray(pipelines.id, ids));
  const byId = new Map(found.map((p) => [p.id, p]));
  const orphans = ids.filter((id) => !byId.has(id));
  // a deleted pipeline's organization, from one of its runs
  const orphanOrgs = new Map<string, string>();
  for (const id of orphans) {
    const [row] = rowsOf<{ org_id: string }>(await db.execute(sql`select org_id from executions where pipeline_id = ${id}::uuid limit 1`));
    if (row) orphanOrgs.set(id, row.org_id);
  }
  const orgIds = [...new Set([...found.map((p) => p.orgId), ...orphanOrgs.values()])];
  const orgs = orgIds.length
    ? await db.select({ id: organizations.id, dataSettings: organizations.dataSettings }).from(organizations).where(inArray(organizations.id, orgIds))
    : [];
  const orgSettings = new Map(orgs.map((o) => [o.id, orgDataSettings(o.dataSettings as DataSettingsOverride)]));
  const targets: RetentionTarget[] = [];
  for (const id of ids) {
    const p = byId.get(id);
    const org = p?.orgId ?? orphanOrgs.get(id);
    const base = org === undefined ? undefined : orgSettings.get(org);
    if (org === undefined || !base) continue; // its organization is gone, and its runs with it (cascade)
    targets.push({ orgId: org, pipelineId: id, name: p?.name ?? null, settings: p ? resolveDataSettings(base, p.dataSettings as DataSettingsOverride) : base });
  }
  return orgId === undefined ? targets : targets.filter((t) => t.orgId === orgId);
}
