'use client';

import { useMemo, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/field';
import { SchemaForm } from '@/features/editor/schema-form';
import { errorMessage, appError } from '@/trpc/errors';
import { api, type RouterOutputs } from '@/trpc/react';

export type Connector = RouterOutputs['connectors']['list']['connectors'][number];
type TypeInfo = RouterOutputs['connectors']['types']['types'][number];

const SELECT = 'h-9 w-full rounded-md border border-slate-300 bg-white pr-8 pl-3 text-sm shadow-sm';

/** The credentials this type and its authentication need; all of them when the type has no auth choice. */
function credentialFields(info: TypeInfo, config: Record<string, unknown>): string[] {
  const all = Object.keys((info.credentials_schema as { properties?: Record<string, unknown> }).properties ?? {});
  if (!('auth' in ((info.config_schema as { properties?: Record<string, unknown> }).properties ?? {}))) return all;
  return info.auth_requires[String(config.auth ?? 'none')] ?? [];
}

/** The settings form without what only another authentication uses (properties marked `x-auth`). */
function settingsSchema(info: TypeInfo, config: Record<string, unknown>): Record<string, unknown> {
  const schema = info.config_schema as { properties?: Record<string, { 'x-auth'?: string; default?: unknown }> };
  const props = schema.properties ?? {};
  const auth = String(config.auth ?? props.auth?.default ?? 'none');
  return { ...schema, properties: Object.fromEntries(Object.entries(props).filter(([, p]) => !p['x-auth'] || p['x-auth'] === auth)) };
}

/** Create or edit a connector: its type's settings form comes from GET /api/connectors/types; secrets are write-only. */
export function ConnectorDialog({ open, onClose, types, editing }: { open: boolean; onClose: () => void; types: TypeInfo[]; editing: Connector | null }) {
  const utils = api.useUtils();
  const [type, setType] = useState(editing?.type ?? types[0]?.type ?? 'fhir');
  const [config, setConfig] = useState<Record<string, unknown>>(editing?.config ?? {});
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const done = { onSuccess: () => void utils.connectors.list.invalidate().then(onClose) };
  const create = api.connectors.create.useMutation(done);
  const update = api.connectors.update.useMutation(done);
  const info = types.find((t) => t.type === type);
  // rebuilt only when the authentication changes, not on every keystroke
  const shown = useMemo(() => (info ? settingsSchema(info, { auth: config.auth }) : null), [info, config.auth]);
  const failure = create.error ?? update.error;
  const details = (appError(failure)?.details as { path: string; message: string }[] | undefined) ?? [];

  function submit(form: FormData) {
    const name = String(form.get('name') ?? '').trim();
    const endpoint = String(form.get('endpoint') ?? '').trim();
    const credentials = Object.fromEntries(Object.entries(secrets).filter(([, v]) => v !== ''));
    // settings of another authentication (a token URL left from oauth2) are not kept
    const visible = Object.keys((shown as { properties?: Record<string, unknown> } | null)?.properties ?? {});
    const settings = Object.fromEntries(
      Object.entries(config).filter(([k]) => visible.includes(k) || !(k in ((info?.config_schema as { properties?: object }).properties ?? {}))),
    );
    if (editing) update.mutate({ id: editing.id, name, endpoint, config: settings, credentials });
    else create.mutate({ name, type, endpoint, config: settings, credentials });
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={editing ? `Edit ${editing.name}` : 'New connector'}
      description="Credentials are stored encrypted and never shown again: leave a secret empty to keep the one saved."
      className="max-w-xl"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="connector-form" loading={create.isPending || update.isPending}>
            {editing ? 'Save connector' : 'Create connector'}
          </Button>
        </>
      }
    >
      <form
        id="connector-form"
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit(new FormData(e.currentTarget));
        }}
      >
        <label className="block space-y-1.5">
          <span className="block text-sm font-medium text-slate-700">Type</span>
          <select aria-label="Type" className={SELECT} value={type} disabled={!!editing} onChange={(e) => (setType(e.target.value), setConfig({}))}>
            {types.map((t) => (
              <option key={t.type} value={t.type}>
                {t.name}
              </option>
            ))}
          </select>
          {info ? <span className="block text-xs text-slate-500">{info.description}</span> : null}
        </label>
        <TextField label="Name" name="name" required defaultValue={editing?.name} placeholder="Hospital FHIR" />
        <TextField label="Endpoint" name="endpoint" required defaultValue={editing?.endpoint} hint={info?.endpoint} />
        {shown ? (
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-700">Settings</legend>
            <SchemaForm idPrefix="connector-config" schema={shown} value={config} onChange={(c) => setConfig(c)} />
          </fieldset>
        ) : null}
        {info && credentialFields(info, config).length > 0 ? (
          <fieldset className="space-y-3">
            <legend className="text-sm font-medium text-slate-700">Credentials</legend>
            {credentialFields(info, config).map((field) => (
              <TextField
                key={`${type}:${field}`}
                label={String(((info.credentials_schema as { properties?: Record<string, { title?: string }> }).properties ?? {})[field]?.title ?? field)}
                type="password"
                autoComplete="off"
                value={secrets[field] ?? ''}
                onChange={(e) => setSecrets({ ...secrets, [field]: e.target.value })}
                placeholder={editing?.credentials[field] ? `${editing.credentials[field]} (saved; type to replace)` : ''}
              />
            ))}
          </fieldset>
        ) : null}
        {failure ? (
          <Alert title="The connector was not saved">
            {details.length ? (
              <ul className="list-disc pl-4">
                {details.map((d) => (
                  <li key={d.path}>
                    {d.path}: {d.message}
                  </li>
                ))}
              </ul>
            ) : (
              errorMessage(failure)
            )}
          </Alert>
        ) : null}
      </form>
    </Dialog>
  );
}
