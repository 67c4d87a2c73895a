/**
 * Once per message: a value that fhir-validate passed, and that nothing has changed since, is not validated again
 * (by fhir-write's own check). What is remembered is the value's identity and, unless every node it goes to is known
 * to leave it as it is, its content: a WeakMap from the object fhir-validate let through to its JSON text at that
 * moment. Nothing else can find an entry (only a holder of the very same object), an entry lives as long as the object
 * and no longer, and a value changed in place — by a node that edits its input, say — has another text, so it is
 * validated again; a changed copy (fhir-deidentify's output) is another object, and is validated as any. The text is
 * what the store, the next nodes and a FHIR server read of the value, so a change that does not show in it (a property
 * set to undefined) is not one to them either.
 * Costs one JSON.stringify of the value on each side (a fraction of a validation, bench/fhir-validate.ts), or nothing
 * when only READ_ONLY nodes read it.
 */

const passed = new WeakMap<object, string>();
/** Values that passed and that only READ_ONLY nodes read: their identity says they are unchanged. */
const kept = new WeakSet<object>();

/**
 * Node types that never change a value they read, nor pass the very object on (fhir-deidentify's output is a copy;
 * fhir-write sends it, and in test mode shows a copy of it).
 */
const READ_ONLY = new Set(['fhir-deidentify', 'fhir-write']);

/**
 * Remembers that `value`, as it is now, passed FHIR validation without errors. `readers`: the node types it goes to
 * (NodeContext.outputTargets); when each is READ_ONLY no snapshot is taken. None known, or none at all (a for-each
 * body's output leaves the body unconnected): the snapshot.
 */
export function rememberValid(value: unknown, readers?: readonly string[]): void {
  if (!value || typeof value !== 'object') return;
  if (readers?.length && readers.every((r) => READ_ONLY.has(r))) kept.add(value);
  else passed.set(value, JSON.stringify(value));
}

/** Whether `value` is an object that passed validation and is unchanged since. */
export function passedUnchanged(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  if (kept.has(value)) return true;
  const text = passed.get(value);
  return text !== undefined && text === JSON.stringify(value);
}
