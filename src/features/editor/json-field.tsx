'use client';

import type { FieldProps } from '@rjsf/utils';
import { useEffect, useState } from 'react';
import { EMPTY_JSON as EMPTY, jsonKindOf, parseJsonOf } from './form-schema';
import { JsonEditor, pretty } from './json-editor';

/**
 * A config field edited as JSON text (fields whose node hints `widget: json`, such as a for-each body or a
 * de-identification's rules: a whole nested pipeline or a list of rules is clearer as JSON than as nested form
 * sections). It takes what the field's schema takes (a list, an object); the value changes only when the text
 * parses, until then the parse error shows under the editor.
 */
export function JsonValueField({ formData, onChange, fieldPathId, name, schema, required }: FieldProps) {
  const kind = jsonKindOf(schema);
  const empty = EMPTY[kind];
  const show = (v: unknown) => (v === undefined ? '' : pretty(v));
  const [text, setText] = useState(() => show(formData ?? empty));
  const [error, setError] = useState<string | null>(null);
  // a change from elsewhere (undo, another version) replaces the text, unless it is what the text says
  useEffect(() => {
    const parsed = parseJsonOf(kind, text);
    if (!('value' in parsed) || JSON.stringify(parsed.value) !== JSON.stringify(formData ?? empty)) setText(show(formData ?? empty));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only outside changes of the value matter here
  }, [formData]);
  const label = schema.title ?? name;
  return (
    <div className="form-group">
      <label className="control-label" htmlFor={fieldPathId.$id}>
        {label}
        {required ? <span className="required">*</span> : null}
      </label>
      {schema.description ? <p className="field-description">{schema.description}</p> : null}
      <JsonEditor
        label={label}
        value={text}
        height={kind === 'array' ? '160px' : '260px'}
        onChange={(next) => {
          setText(next);
          const parsed = parseJsonOf(kind, next);
          if ('error' in parsed) return setError(parsed.error);
          setError(null);
          onChange(parsed.value, fieldPathId.path);
        }}
      />
      {error ? <p className="mt-1 text-xs text-red-700">{error}</p> : null}
    </div>
  );
}
