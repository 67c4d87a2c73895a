'use client';

import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/field';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import type { PipelineSummary } from './types';

export function RenamePipelineDialog({ pipeline, onClose }: { pipeline: PipelineSummary | null; onClose: () => void }) {
  const utils = api.useUtils();
  const [nameError, setNameError] = useState<string | null>(null);
  const update = api.pipelines.update.useMutation({
    onSuccess: async (p) => {
      toast.success(`Renamed to “${p.name}”`, { description: `Saved as version ${p.version}.` });
      await utils.pipelines.list.invalidate();
      close();
    },
  });

  function close() {
    update.reset();
    setNameError(null);
    onClose();
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!pipeline) return;
    const name = String(new FormData(e.currentTarget).get('name') ?? '').trim();
    if (!name) {
      setNameError('The name must not be empty.');
      return;
    }
    if (name === pipeline.name) {
      close();
      return;
    }
    setNameError(null);
    update.mutate({ id: pipeline.id, name });
  }

  return (
    <Dialog open={pipeline !== null} onClose={close} title="Rename pipeline" description="Renaming saves a new version; earlier versions keep their names.">
      <form onSubmit={submit} className="space-y-4">
        <TextField label="Name" name="name" defaultValue={pipeline?.name} maxLength={200} autoFocus error={nameError} onInput={() => setNameError(null)} />
        {update.error ? <Alert>{errorMessage(update.error)}</Alert> : null}
        <div className="flex justify-end gap-2 pt-1">
          <Button variant="secondary" onClick={close} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save name
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
