import type { Definition } from './definition';

/** Unsaved canvas changes kept in localStorage per pipeline and base version, so a reload loses nothing. */
export interface Draft {
  pipelineId: string;
  version: number;
  definition: Definition;
  savedAt: string;
}

const PREFIX = 'clinflow:editor-draft:';

function key(pipelineId: string, version: number) {
  return `${PREFIX}${pipelineId}:v${version}`;
}

function parse(raw: string | null): Draft | null {
  if (!raw) return null;
  try {
    const d = JSON.parse(raw) as Draft;
    return d && Array.isArray(d.definition?.nodes) && Array.isArray(d.definition?.connections) ? d : null;
  } catch {
    return null;
  }
}

export function writeDraft(pipelineId: string, version: number, definition: Definition) {
  try {
    const draft: Draft = { pipelineId, version, definition, savedAt: new Date().toISOString() };
    localStorage.setItem(key(pipelineId, version), JSON.stringify(draft));
  } catch {
    // storage full or disabled: the draft is a convenience, the editor keeps working
  }
}

/** Drafts of this pipeline, newest base version first. */
export function listDrafts(pipelineId: string): Draft[] {
  const out: Draft[] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k?.startsWith(`${PREFIX}${pipelineId}:v`)) {
        const d = parse(localStorage.getItem(k));
        if (d) out.push(d);
      }
    }
  } catch {
    return [];
  }
  return out.sort((a, b) => b.version - a.version);
}

export function removeDraft(pipelineId: string, version: number) {
  try {
    localStorage.removeItem(key(pipelineId, version));
  } catch {
    // ignore
  }
}

/** Drops every draft of the pipeline (after a save, or when the user discards). */
export function clearDrafts(pipelineId: string) {
  try {
    for (const d of listDrafts(pipelineId)) localStorage.removeItem(key(pipelineId, d.version));
  } catch {
    // ignore
  }
}
