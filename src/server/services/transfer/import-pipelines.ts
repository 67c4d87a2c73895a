import type { z } from 'zod';
import { AppError } from '@/server/errors';
import type { DataSettingsOverride } from '@/shared/data-settings';
import type { PipelineDefinition } from '@/shared/pipeline';
import type { ServiceContext } from '../context';
import { createPipeline } from '../pipelines/create-pipeline';
import { validatePipelineDefinition } from '../pipelines/validate-definition';
import { orgConnectors } from './export-pipelines';
import { renameConnectors, uniqueNeeds, upgradeDocument, type ConnectorNeed } from './format';

/** What one pipeline of the file must be to be saved: the create operation's own checks (the caller passes its schema). */
export type PipelineShape = z.ZodType<{ name: string; description: string; definition: PipelineDefinition; data_settings?: DataSettingsOverride }>;

export interface ImportInput {
  document: unknown;
  /** A connector of the file (by its name) → one of this organization's (id or name); the rest match by name and type. */
  connector_map?: Record<string, string>;
  /** Report what would happen; create nothing. */
  dry_run?: boolean;
}

/**
 * Imports the pipelines of an export document (any version this Clinflow reads) into the caller's organization: each
 * checked as a save is (all before any is created: a bad one refuses the file, VALIDATION_FAILED with where), its
 * connectors matched by the map or by name and type, and created as a new pipeline at version 1 — never deployed. A
 * connector with no match is reported (its nodes keep its name: creating a connector of that name and type later
 * makes them work); each pipeline's validation report says what else stops it from running.
 */
export async function importPipelines(ctx: ServiceContext, input: ImportInput, shape: PipelineShape) {
  const upgraded = upgradeDocument(input.document);
  if ('error' in upgraded) throw new AppError('VALIDATION_FAILED', upgraded.error, [{ path: 'document', message: upgraded.error }]);
  const entries = Array.isArray(upgraded.doc.pipelines) ? upgraded.doc.pipelines : [];
  if (entries.length === 0 || entries.length > 100) throw invalid('document.pipelines', 'holds no pipeline, or more than 100');
  const parsed = entries.map((p, i) => {
    const r = shape.safeParse({ name: p?.name, description: p?.description ?? '', definition: p?.definition, data_settings: p?.data_settings ?? undefined });
    if (!r.success) throw invalid(`document.pipelines.${i}.${String(r.error.issues[0]?.path.join('.') ?? '')}`, r.error.issues[0]?.message ?? 'invalid');
    return { ...r.data, needs: Array.isArray(p.connectors) ? p.connectors : [] };
  });

  const own = await orgConnectors(ctx);
  const map = input.connector_map ?? {};
  const resolve = (need: ConnectorNeed) => {
    const wanted = map[need.name];
    if (wanted !== undefined) {
      const hit = own.find((c) => c.id === wanted || c.name === wanted);
      if (!hit) throw invalid(`connector_map.${need.name}`, `names no connector of this organization ("${wanted}")`);
      if (hit.type !== need.type) throw invalid(`connector_map.${need.name}`, `"${hit.name}" is a ${hit.type} connector; the pipeline needs ${need.type}`);
      return hit;
    }
    return own.find((c) => c.name === need.name && c.type === need.type);
  };
  const needs = uniqueNeeds(parsed.flatMap((p) => p.needs.filter((n) => typeof n?.name === 'string' && typeof n?.type === 'string')));
  const matches = needs.map((need) => {
    const hit = resolve(need);
    return { name: need.name, type: need.type, mapped_to: hit ? { id: hit.id, name: hit.name } : null };
  });
  const target = (ref: string, type: string) => matches.find((m) => m.name === ref && m.type === type)?.mapped_to?.name ?? ref;

  const results = [];
  for (const p of parsed) {
    const definition = renameConnectors(p.definition, target);
    const report = validatePipelineDefinition(definition);
    const created = input.dry_run ? null : await createPipeline(ctx, { name: p.name, description: p.description, definition, data_settings: p.data_settings });
    results.push({
      name: p.name,
      id: created?.id ?? null,
      version: created?.version ?? null,
      status: created?.status ?? null,
      valid: report.valid,
      errors: report.errors.map((e) => e.message),
      missing_connectors: p.needs.filter((n) => !matches.find((m) => m.name === n.name && m.type === n.type)?.mapped_to).map((n) => n.name),
    });
  }
  return {
    dry_run: input.dry_run ?? false,
    format_version: upgraded.doc.format_version,
    pipelines: results,
    connectors: matches,
    missing_connectors: matches.filter((m) => !m.mapped_to).map(({ name, type }) => ({ name, type })),
  };
}

function invalid(path: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', `Invalid import: ${path}: ${message}`, [{ path, message }]);
}
