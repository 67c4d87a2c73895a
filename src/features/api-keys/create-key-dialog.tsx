'use client';

import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TextAreaField, TextField } from '@/components/ui/field';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { CreatedKey } from './created-key';
import { BASE_SCOPES, parseAgentScopes, type CreatedApiKey } from './types';

export function CreateKeyDialog({ open, onClose, orgId }: { open: boolean; onClose: () => void; orgId: string }) {
  const utils = api.useUtils();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [errors, setErrors] = useState<{ name?: string; scopes?: string; agents?: string }>({});
  const create = api.keys.create.useMutation({
    onSuccess: async (k) => {
      setCreated(k);
      toast.success(`Key “${k.name}” created`);
      await utils.keys.list.invalidate();
    },
  });

  function close() {
    setCreated(null);
    setErrors({});
    create.reset();
    onClose();
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const name = String(form.get('name') ?? '').trim();
    const base = form.getAll('scope').map(String);
    const agents = parseAgentScopes(String(form.get('agents') ?? ''));
    const next: typeof errors = {};
    if (!name) next.name = 'Give the key a name, e.g. the system that will use it.';
    if (agents.invalid.length > 0) {
      next.agents = `Not an agent scope: ${agents.invalid.join(', ')}. Use agent/<uuid>:execute.`;
    }
    if (base.length + agents.scopes.length === 0) next.scopes = 'Choose at least one scope.';
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    create.mutate({ name, scopes: [...base, ...agents.scopes] });
  }

  if (created) {
    return (
      <Dialog
        open={open}
        onClose={close}
        title="API key created"
        description={`“${created.name}” can now call the REST API.`}
        footer={<Button onClick={close}>Done</Button>}
      >
        <CreatedKey created={created} orgId={orgId} />
      </Dialog>
    );
  }

  return (
    <Dialog open={open} onClose={close} title="New API key" description="Keys let other systems call the Clinflow REST API on behalf of your organization.">
      <form onSubmit={submit} className="space-y-5">
        <TextField label="Name" name="name" placeholder="e.g. EHR integration" maxLength={100} autoFocus error={errors.name} />
        <fieldset aria-describedby={errors.scopes ? 'scopes-error' : undefined}>
          <legend className="mb-2 text-sm font-medium text-slate-700">Scopes</legend>
          <div className="divide-y divide-slate-100 rounded-md border border-slate-200">
            {BASE_SCOPES.map((s) => (
              <label key={s.scope} className="flex cursor-pointer items-start gap-3 px-3 py-2.5 hover:bg-slate-50">
                <input
                  type="checkbox"
                  name="scope"
                  value={s.scope}
                  aria-label={s.label}
                  aria-describedby={`scope-${s.scope}-help`}
                  className="mt-0.5 size-4 rounded border-slate-300 accent-teal-700"
                />
                <span className="text-sm">
                  <span className="font-mono font-medium text-slate-900">{s.label}</span>
                  <span id={`scope-${s.scope}-help`} className="block text-xs text-slate-500">
                    {s.help}
                  </span>
                </span>
              </label>
            ))}
          </div>
          {errors.scopes ? (
            <p id="scopes-error" className="mt-1.5 text-xs text-red-600">
              {errors.scopes}
            </p>
          ) : null}
        </fieldset>
        <TextAreaField
          label="Agent scopes"
          name="agents"
          rows={2}
          className="font-mono text-xs"
          placeholder="agent/2f1c…-…:execute"
          hint="Optional: let the key invoke single agents. One agent/<uuid>:execute (or agent UUID) per line."
          error={errors.agents}
        />
        {create.error ? <Alert>{errorMessage(create.error)}</Alert> : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create key
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
