/** Where the compiled validator's walk is in a value (walk.ts): paths are built from it only for the issues found. */

/** Where a value is: its path the reference's way (`Observation.value[x]`) and the JSON way (`Observation.valueQuantity`). */
export interface At {
  up: At | undefined;
  name: string;
  key: string;
  index: number;
  /** Where @medplum/core's crawl path starts again (the walk of a primitive's extensions): that value's own path. */
  crawl?: string;
}

export function pathOf(at: At, json: boolean): string {
  let s = '';
  for (let a: At | undefined = at; a; a = a.up) s = (a.up ? '.' : '') + (json ? a.key : a.name) + (a.index >= 0 ? `[${a.index}]` : '') + s;
  return s;
}
export const path = (at: At) => pathOf(at, false);

/**
 * The path @medplum/core's crawler passes down, which some of its issues name (`Expected array of values`): the
 * property names without the indices of the items on the way (`Condition.category.coding`).
 */
export function crawlPath(at: At): string {
  let s = '';
  for (let a: At | undefined = at; a; a = a.up) {
    if (a.crawl !== undefined) return a.crawl + s;
    s = (a.up ? '.' : '') + a.name + s;
  }
  return s;
}
