import { forEachOpenApiProcedure, getPathRegExp, normalizePath } from 'trpc-to-openapi';
import type { AppRouter } from '@/server/api/root';

interface Route {
  method: string;
  path: string;
  pattern: RegExp;
}

/** The documented REST routes, read from the procedures' OpenAPI meta (the one source of truth). */
export function restRoutes(router: AppRouter): Route[] {
  const routes: Route[] = [];
  forEachOpenApiProcedure(router._def.procedures, ({ meta }) => {
    const path = normalizePath(meta.openapi.path);
    routes.push({ method: meta.openapi.method, path, pattern: getPathRegExp(path) });
  });
  return routes;
}

export type RouteMatch = { kind: 'ok' } | { kind: 'not-found' } | { kind: 'wrong-method'; allow: string[] };

export function matchRoute(routes: Route[], method: string, path: string): RouteMatch {
  const matching = routes.filter((r) => r.pattern.test(path));
  if (matching.length === 0) return { kind: 'not-found' };
  if (matching.some((r) => r.method === method)) return { kind: 'ok' };
  return { kind: 'wrong-method', allow: [...new Set(matching.map((r) => r.method))] };
}
