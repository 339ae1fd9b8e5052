import type { Express } from 'express';

export interface ServedRoute {
  method: string;
  /** Express-style (`/v1/:slug/conversation/status`). */
  path: string;
}

interface RouterLayer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
}

/**
 * Every method and path the app routes, read from its router stack (mounted routers included).
 * `.all()` handlers (the 405 answers) are not routes of their own; a path that is not a plain
 * string cannot be compared with a document, so it fails loudly instead of being skipped.
 */
export function servedRoutes(app: Express): ServedRoute[] {
  const stack = (app as unknown as { router: { stack: RouterLayer[] } }).router.stack;
  return routesOf(stack, '');
}

function routesOf(stack: readonly RouterLayer[], prefix: string): ServedRoute[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      const path = `${prefix}${stringPath(layer.route.path)}`;
      return Object.keys(layer.route.methods)
        .filter((method) => method !== '_all' && layer.route!.methods[method])
        .map((method) => ({ method, path }));
    }
    const mounted = layer.handle?.stack;
    if (!mounted) return [];
    const mountPath = layer.rawPath === undefined || layer.rawPath === '/' ? '' : stringPath(layer.rawPath);
    return routesOf(mounted, `${prefix}${mountPath}`);
  });
}

function stringPath(path: unknown): string {
  if (typeof path !== 'string') throw new Error(`a route path that is not a string cannot be checked against the OpenAPI document: ${String(path)}`);
  return path;
}
