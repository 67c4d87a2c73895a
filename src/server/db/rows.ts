/** Rows of a raw `db.execute(sql…)`: PGlite answers `{rows}`, postgres.js the array itself. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
