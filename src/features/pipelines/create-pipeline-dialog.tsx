'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TextAreaField, TextField } from '@/components/ui/field';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';

export function CreatePipelineDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const utils = api.useUtils();
  const router = useRouter();
  const [nameError, setNameError] = useState<string | null>(null);
  const create = api.pipelines.create.useMutation({
    // a new pipeline is made to be built: the editor opens on it
    onSuccess: async (p) => {
      toast.success(`Pipeline “${p.name}” created`);
      await utils.pipelines.list.invalidate();
      onCreated();
      close();
      router.push(`/pipelines/${p.id}`);
    },
  });

  function close() {
    create.reset();
    setNameError(null);
    onClose();
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const name = String(form.get('name') ?? '').trim();
    if (!name) {
      setNameError('Give the pipeline a name.');
      return;
    }
    setNameError(null);
    create.mutate({ name, description: String(form.get('description') ?? '').trim() });
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title="New pipeline"
      description="Start with a name. You can add nodes and connections to the empty pipeline afterwards."
    >
      <form onSubmit={submit} className="space-y-4">
        <TextField label="Name" name="name" placeholder="e.g. HL7 ADT to FHIR" maxLength={200} autoFocus error={nameError} onInput={() => setNameError(null)} />
        <TextAreaField label="Description" name="description" placeholder="What does this pipeline do? (optional)" maxLength={5000} />
        {create.error ? <Alert>{errorMessage(create.error)}</Alert> : null}
        <div className="flex justify-end gap-2 pt-1">
          <Button variant="secondary" onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create pipeline
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
