// Types of bench/lib.mjs, for the benches written in TypeScript (bench/bundled.mjs bundles them).
export const root: string;
export const ORG: { id: string; key: string };
export const AUTH: Record<string, string>;
export const env: Record<string, string | undefined>;
export function build(): void;
export function startServer(extraEnv: Record<string, string>, port: number): Promise<{ url: string; pid: number; stop: () => void }>;
export function program(which: 'server' | 'worker'): string;
export function startWorker(extraEnv: Record<string, string>): Promise<{ pid: number; stop: () => void }>;
export function load(opts: Record<string, unknown>): Promise<{ rps: number; p50: number; p99: number; non2xx: number; total: number }>;
export function withDatabase<T>(label: string, f: (url: string) => Promise<T>): Promise<T>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function api(url: string, method: string, path: string, body?: unknown): Promise<any>;
/** CPU time (user + system, ms) one process has used so far (/proc); 0 when it is gone. */
export function ownCpuMs(pid: number | string): number;
/** The same for a process and its children (a cluster's server processes). */
export function cpuMs(pid: number | undefined): number;
/** CPU time of each of the machine's Postgres processes, by pid. */
export function postgresCpu(): Map<string, number>;
/** What the Postgres processes of `before` and those started since used from then until now. */
export function postgresCpuSince(before: Map<string, number>): number;
/** BENCH_POLICY: the data policies to run the benches' pipelines under (full by default). */
export const POLICIES: string[];
export interface DbBytes {
  runs: number;
  database: number;
  executions: number;
  tables: Record<string, { heap: number; toast: number; indexes: number }>;
}
export interface TableBytes {
  name: string;
  heap: number;
  toast: number;
  indexes: number;
}
/** Bytes of the executions tables and of the database, and the executions' count (Postgres). */
export function dbBytes(url: string): Promise<DbBytes>;
/** Bytes per execution between two readings; null when no execution was made. */
export function bytesPerRun(before: DbBytes, after: DbBytes): { runs: number; database: number; executions: number; tables: TableBytes[] } | null;
/** The per-table lines of a bytesPerRun, for a bench's report. */
export function bytesByTable(b: { tables: TableBytes[] }): string;
/** A horizontal bar chart as an SVG document: a bar per row; `reference` draws a dashed baseline. */
export function barChart(
  title: string,
  rows: { label: string; value: number; note?: string; color?: string }[],
  options?: { unit?: string; reference?: { value: number; label: string } },
): string;
