export const dynamic = 'force-dynamic';

/** Liveness probe: runs on every request but touches no database (also the benchmarks' bare baseline). */
export function GET() {
  return Response.json({ status: 'ok' });
}
