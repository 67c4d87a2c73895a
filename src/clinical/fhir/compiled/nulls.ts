import type { Json } from './schema';
import { scanNested } from './nested';
import { type At, pathOf } from './paths';
import { structure, type State } from './state';

// The null checks of the compiled validator's walk (walk.ts): @medplum/core's first check, of null values anywhere.

/**
 * @medplum/core's first check, of null values anywhere, done by the walk as it goes (where it walks the JSON as it
 * is): this key's value, or its list's items.
 */
export function nullsOf(s: State, o: Json, key: string, value: unknown, at: At): void {
  if (value === null) structure(s, `${pathOf(at, true)}.${key}`, 'Invalid null value');
  else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (item === undefined) structure(s, `${pathOf(at, true)}.${key}[${i}]`, 'Invalid undefined value');
      else if (item === null) {
        const partner = o[key.startsWith('_') ? key.slice(1) : `_${key}`] as unknown[] | undefined;
        if (!partner?.[i]) structure(s, `${pathOf(at, true)}.${key}[${i}]`, 'Invalid null value');
      }
    }
  }
}

/** A part of the JSON the walk does not go through as it is: resource-invariants.ts's walk, and the nulls below it. */
export function unwalked(s: State, value: unknown, json: string): void {
  scanNested(value, json, s.root, s.nested);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (value[i] && typeof value[i] === 'object') nulls(value[i] as Json, [`${json}[${i}]`], s);
  } else if (value && typeof value === 'object') nulls(value as Json, [json], s);
}

/** Null values anywhere below an object (@medplum/core's first check); the path is joined only for an issue. */
function nulls(obj: Json, trail: string[], s: State): void {
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    if (value === null) structure(s, `${trail.join('')}.${key}`, 'Invalid null value');
    else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        if (item === undefined) structure(s, `${trail.join('')}.${key}[${i}]`, 'Invalid undefined value');
        else if (item === null) {
          const partner = obj[key.startsWith('_') ? key.slice(1) : `_${key}`] as unknown[] | undefined;
          if (!partner?.[i]) structure(s, `${trail.join('')}.${key}[${i}]`, 'Invalid null value');
        } else if (typeof item === 'object') {
          trail.push(`.${key}[${i}]`);
          nulls(item as Json, trail, s);
          trail.pop();
        }
      }
    } else if (typeof value === 'object') {
      trail.push(`.${key}`);
      nulls(value as Json, trail, s);
      trail.pop();
    }
  }
}
