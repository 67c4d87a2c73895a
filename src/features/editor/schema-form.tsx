'use client';

import Form from '@rjsf/core';
import { englishStringTranslator, TranslatableString, type IconButtonProps, type RJSFSchema, type UiSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { ArrowDown, ArrowUp, Copy, Plus, X } from 'lucide-react';
import { useMemo } from 'react';
import { AgentWidget } from './agent-widget';
import { ConnectorWidget } from './connector-widget';
import { CronWidget } from './cron-widget';
import { prepareFormSchema, plainFormError, renameNewKeys } from './form-schema';
import { JsonValueField } from './json-field';
import { JsonataWidget } from './jsonata-editor';
import './schema-form.css';

function iconButton(Icon: typeof Plus, label: string, danger = false) {
  return function IconButton({ onClick, disabled, className, title, id, style }: IconButtonProps) {
    return (
      <button
        type="button"
        id={id}
        style={style}
        onClick={onClick}
        disabled={disabled}
        title={title ?? label}
        aria-label={title ?? label}
        className={`cf-icon-btn ${danger ? 'cf-icon-btn-danger' : ''} ${className ?? ''}`}
      >
        <Icon className="size-3.5" aria-hidden />
      </button>
    );
  };
}

function AddButton({ onClick, disabled, id, className }: IconButtonProps) {
  return (
    <button type="button" id={id} onClick={onClick} disabled={disabled} className={`cf-add-btn ${className ?? ''}`}>
      <Plus className="size-3.5" aria-hidden />
      Add
    </button>
  );
}

const fields = { json: JsonValueField };
const widgets = { connector: ConnectorWidget, agent: AgentWidget, jsonata: JsonataWidget, cron: CronWidget };

const templates = {
  ButtonTemplates: {
    AddButton,
    RemoveButton: iconButton(X, 'Remove', true),
    CopyButton: iconButton(Copy, 'Copy'),
    MoveUpButton: iconButton(ArrowUp, 'Move up'),
    MoveDownButton: iconButton(ArrowDown, 'Move down'),
    SubmitButton: () => null,
  },
};

/** One field's look from its hints; the fields of a list's items or of a nested object get theirs too. */
function fieldUi(p: RJSFSchema): UiSchema | undefined {
  const widget = p['x-widget'];
  let ui: UiSchema | undefined;
  if (widget === 'json') ui = { 'ui:field': 'json' };
  else if (widget === 'connector') ui = { 'ui:widget': 'connector', 'ui:options': { connectorType: p['x-connector-type'] } };
  else if (widget === 'agent') ui = { 'ui:widget': 'agent' };
  else if (widget === 'expression') ui = { 'ui:widget': 'jsonata' };
  else if (widget === 'cron') ui = { 'ui:widget': 'cron' };
  else if (widget === 'code' || widget === 'textarea' || (p.type === 'string' && !p.enum && (p.maxLength ?? 0) > 500)) {
    ui = { 'ui:widget': 'textarea', 'ui:options': { rows: widget === 'textarea' ? 4 : 5 }, ...(widget === 'textarea' ? {} : { 'ui:classNames': 'cf-code' }) };
  } else if (p.type === 'array' && p.items && typeof p.items === 'object' && !Array.isArray(p.items)) {
    const items = propertiesUi(p.items as RJSFSchema);
    if (Object.keys(items).length) ui = { items };
  } else if (p.type === 'object' && p.properties) {
    const inner = propertiesUi(p);
    if (Object.keys(inner).length) ui = inner;
  }
  if (typeof p['x-placeholder'] === 'string') ui = { ...ui, 'ui:placeholder': p['x-placeholder'] };
  return ui;
}

function propertiesUi(schema: RJSFSchema): UiSchema {
  const ui: UiSchema = {};
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (typeof prop !== 'object' || prop === null) continue;
    const field = fieldUi(prop as RJSFSchema);
    if (field) ui[name] = field;
  }
  return ui;
}

/**
 * The form's look from the node descriptor's hints, carried in the JSON Schema (`x-widget` on a field,
 * `x-order` on the schema): JSON fields get a JSON editor, JSONata expressions the JSONata editor (in a
 * list's items too, as a switch's cases), code a monospace text area. A long string field without a hint
 * gets the text area too.
 */
function uiSchemaFor(schema: RJSFSchema): UiSchema {
  const ui: UiSchema = { 'ui:submitButtonOptions': { norender: true }, ...propertiesUi(schema) };
  const order = (schema as { 'x-order'?: string[] })['x-order'];
  if (order) ui['ui:order'] = [...order, '*'];
  return ui;
}

/** rjsf's own words: a map entry's name field is labelled "Name" (not "newKey Key"). */
function translateString(key: TranslatableString, params?: string[]): string {
  if (key === TranslatableString.KeyLabel) return 'Name';
  return englishStringTranslator(key, params);
}

export interface SchemaFormProps {
  schema: Record<string, unknown>;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>, field?: string) => void;
  idPrefix: string;
}

/** A config form generated from the node type's JSON Schema (never written per node). */
export function SchemaForm({ schema, value, onChange, idPrefix }: SchemaFormProps) {
  const prepared = useMemo(() => prepareFormSchema(schema), [schema]);
  const uiSchema = useMemo(() => uiSchemaFor(prepared), [prepared]);
  const empty = !prepared.properties || Object.keys(prepared.properties).length === 0;
  if (empty) return <p className="text-sm text-slate-500">This node has nothing to configure.</p>;
  return (
    <Form
      className="cf-form"
      schema={prepared}
      uiSchema={uiSchema}
      formData={value}
      validator={validator}
      templates={templates}
      fields={fields}
      widgets={widgets}
      idPrefix={idPrefix}
      liveValidate="onChange"
      showErrorList={false}
      transformErrors={(errors) => errors.map((e) => plainFormError(e, prepared))}
      translateString={translateString}
      noHtml5Validate
      onChange={(e, id) => onChange(renameNewKeys(e.formData ?? {}) as Record<string, unknown>, id)}
    />
  );
}
