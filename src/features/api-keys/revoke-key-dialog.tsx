'use client';

import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import type { ApiKey } from './types';

export function RevokeKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const utils = api.useUtils();
  const revoke = api.keys.revoke.useMutation({
    onSuccess: async (k) => {
      toast.success(`Key “${k.name}” revoked`, { description: 'Requests with it are now refused.' });
      await utils.keys.list.invalidate();
      close();
    },
  });

  function close() {
    revoke.reset();
    onClose();
  }

  return (
    <ConfirmDialog
      open={apiKey !== null}
      onClose={close}
      onConfirm={() => apiKey && revoke.mutate({ id: apiKey.id })}
      title={`Revoke “${apiKey?.name ?? ''}”?`}
      confirmLabel="Revoke key"
      danger
      pending={revoke.isPending}
      error={revoke.error ? errorMessage(revoke.error) : null}
    >
      <p className="text-sm text-slate-600">
        Every client using the key <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs">{apiKey?.prefix}…</code> stops working at once: its
        requests are answered with 401. This cannot be undone; create a new key to replace it.
      </p>
    </ConfirmDialog>
  );
}
