import { eq, sql } from 'drizzle-orm';
import { organizations } from '@/server/db/schema';
import { jsonText } from '@/server/db/json';
import { DEFAULT_DATA_SETTINGS, orgDataSettings, resolveDataSettings, type DataSettings, type DataSettingsOverride } from '@/shared/data-settings';
import type { ServiceContext } from '../context';

const KEYS = ['policy', 'payload_days', 'execution_days', 'max_executions'] as const;
type Key = (typeof KEYS)[number];

/**
 * Data settings as the API shows them (a pipeline's in its `metadata`, an organization's at
 * /api/organization/data-settings): what applies, what is set here (null: inherited), which values are
 * inherited, and the defaults they are inherited from (the organization's for a pipeline, the built-in ones
 * for an organization).
 */
export interface DataSettingsView {
  effective: DataSettings;
  overrides: { [K in Key]: NonNullable<DataSettingsOverride[K]> | null };
  inherited: Key[];
  defaults: DataSettings;
}

export function dataSettingsView(defaults: DataSettings, own: DataSettingsOverride | null | undefined): DataSettingsView {
  const overrides = Object.fromEntries(KEYS.map((k) => [k, own?.[k] ?? null])) as DataSettingsView['overrides'];
  return {
    effective: resolveDataSettings(defaults, own),
    overrides,
    inherited: KEYS.filter((k) => overrides[k] === null),
    defaults,
  };
}

/**
 * A stored override with `change` applied: keys given replace, a null clears (inherits again), keys left out stay.
 * Nulls are not stored: an absent key is what inherits.
 */
export function mergeOverride(stored: DataSettingsOverride | null | undefined, change: DataSettingsOverride): DataSettingsOverride {
  const merged: Record<string, unknown> = { ...stored, ...change };
  for (const k of Object.keys(merged)) if (merged[k] === null || merged[k] === undefined) delete merged[k];
  return merged as DataSettingsOverride;
}

/** The same merge as SQL over a `data_settings` column (one statement, no read first). */
export function mergeOverrideSql(column: unknown, change: DataSettingsOverride) {
  return sql`jsonb_strip_nulls(${column} || ${jsonText(change)}::jsonb)`;
}

/** GET /api/organization/data-settings. */
export async function getOrgDataSettings(ctx: ServiceContext): Promise<DataSettingsView> {
  const [row] = await ctx.db.select({ s: organizations.dataSettings }).from(organizations).where(eq(organizations.id, ctx.principal.orgId));
  return dataSettingsView(DEFAULT_DATA_SETTINGS, row?.s);
}

/** PUT /api/organization/data-settings (admins): changes the defaults every pipeline that sets no value of its own uses. */
export async function setOrgDataSettings(ctx: ServiceContext, change: DataSettingsOverride): Promise<DataSettingsView> {
  const [row] = await ctx.db
    .update(organizations)
    .set({ dataSettings: mergeOverrideSql(organizations.dataSettings, change) })
    .where(eq(organizations.id, ctx.principal.orgId))
    .returning({ s: organizations.dataSettings });
  return dataSettingsView(DEFAULT_DATA_SETTINGS, row?.s);
}

/** A pipeline's view: its overrides over its organization's settings. */
export function pipelineDataSettings(org: DataSettingsOverride | null | undefined, own: DataSettingsOverride | null | undefined): DataSettingsView {
  return dataSettingsView(orgDataSettings(org), own);
}
