'use client';

import { History } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { formatRelative } from '@/components/ui/relative-time';
import { removeDraft, type Draft } from './draft';
import { useEditorStoreApi } from './store-provider';
import { useDirty } from './use-editor-effects';

/**
 * What the page found in localStorage: a draft of the version it opened (already on the canvas), or a
 * draft made on an older version (offered, not applied).
 */
export type DraftOffer =
  { kind: 'restored'; draft: Draft; saved: Draft['definition'] } | { kind: 'stale'; draft: Draft; saved: Draft['definition']; version: number };

export function DraftBanner({ offer }: { offer: DraftOffer | null }) {
  const store = useEditorStoreApi();
  const [open, setOpen] = useState(offer !== null);
  const dirty = useDirty();
  // a restored draft that got saved (or undone) is no longer news
  const settled = offer?.kind === 'restored' && !dirty;
  useEffect(() => {
    if (settled) setOpen(false);
  }, [settled]);
  if (!offer || !open || settled) return null;
  const { draft } = offer;

  function discard() {
    if (!offer) return;
    const s = store.getState();
    if (offer.kind === 'restored') s.load(offer.saved, s.baseVersion);
    removeDraft(draft.pipelineId, draft.version);
    setOpen(false);
  }
  function restore() {
    if (!offer) return;
    const s = store.getState();
    s.load(draft.definition, s.baseVersion, offer.saved);
    removeDraft(draft.pipelineId, draft.version);
    setOpen(false);
  }

  return (
    <div
      role="status"
      className="flex shrink-0 items-center gap-3 border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900"
      data-testid="draft-banner"
    >
      <History className="size-4 shrink-0" aria-hidden />
      {offer.kind === 'restored' ? (
        <p className="min-w-0 flex-1">Restored your unsaved changes from {formatRelative(draft.savedAt)}. Save them as a new version, or discard them.</p>
      ) : (
        <p className="min-w-0 flex-1">
          You have unsaved changes from {formatRelative(draft.savedAt)}, made on version {draft.version}; the pipeline is now at version {offer.version}.
        </p>
      )}
      {offer.kind === 'stale' ? (
        <Button size="sm" variant="secondary" onClick={restore}>
          Restore them
        </Button>
      ) : (
        <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
          Keep
        </Button>
      )}
      <Button size="sm" variant="ghost-danger" onClick={discard}>
        Discard changes
      </Button>
    </div>
  );
}
