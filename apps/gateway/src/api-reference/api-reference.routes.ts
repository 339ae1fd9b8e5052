import { CatalogError } from '@cmsg/errors';
import type { Express, NextFunction, RequestHandler, Response } from 'express';
import path from 'node:path';
import { methodNotAllowedMiddleware } from '../middleware/fallback.middleware';
import { API_REFERENCE_PATHS, guideIndexPage, guidePage, referencePage } from './api-reference-pages';
import { API_REFERENCE_CSP } from './content-security-policy';
import { loadGuides } from './guides';

export interface ApiReferenceDependencies {
  /** The Markdown guides (docs/*.md; the build copies them beside the bundle). */
  guidesDirectory: string;
  /** api-reference.js and api-reference.css (browser/ here; the build copies them beside the bundle). */
  assetsDirectory: string;
}

const VENDOR_ASSETS = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', 'favicon-16x16.png'];
const OWN_ASSETS = ['api-reference.js', 'api-reference.css'];
/** Long enough to spare reloads, short enough that an upgrade shows within minutes (the names carry no version). */
const ASSET_MAX_AGE_MS = 10 * 60_000;

/**
 * GET /docs (the API reference: Swagger UI on /v1/openapi.json), its assets and the guides, all
 * served by the gateway itself (no CDN) under API_REFERENCE_CSP. No token: like the document.
 */
export function registerApiReferenceRoutes(app: Express, { guidesDirectory, assetsDirectory }: ApiReferenceDependencies): void {
  const guides = loadGuides(guidesDirectory, API_REFERENCE_PATHS.guides);
  const vendorDirectory = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const assetFiles = new Map([
    ...VENDOR_ASSETS.map((name) => [name, path.join(vendorDirectory, name)] as const),
    ...OWN_ASSETS.map((name) => [name, path.join(assetsDirectory, name)] as const),
  ]);
  // Every page is rendered once, here: the guides do not change while the gateway runs.
  const referenceHtml = referencePage(guides);
  const guideIndexHtml = guideIndexPage(guides);
  const guidePages = new Map([...guides.values()].map((guide) => [guide.name, guidePage(guide, guides)]));
  const routes: Array<[string, RequestHandler]> = [
    [API_REFERENCE_PATHS.reference, (_req, res) => sendPage(res, referenceHtml)],
    [`${API_REFERENCE_PATHS.assets}/:asset`, servingNamed(assetFiles, 'asset', sendAsset)],
    [API_REFERENCE_PATHS.guides, (_req, res) => sendPage(res, guideIndexHtml)],
    [`${API_REFERENCE_PATHS.guides}/:guide`, servingNamed(guidePages, 'guide', sendPage)],
  ];
  const getOnly = methodNotAllowedMiddleware(['get']);
  for (const [routePath, handler] of routes) app.route(routePath).get(handler).all(getOnly);
}

/** Serves the entry of `entries` that the path parameter names; any other name is 404 NOT_FOUND. */
function servingNamed<Entry>(entries: ReadonlyMap<string, Entry>, parameter: string, serve: (res: Response, entry: Entry, next: NextFunction) => void): RequestHandler {
  return (req, res, next) => {
    const name = req.params[parameter];
    const entry = typeof name === 'string' ? entries.get(name) : undefined;
    if (entry === undefined) {
      next(new CatalogError('NOT_FOUND'));
      return;
    }
    serve(res, entry, next);
  };
}

function setPageSecurityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', API_REFERENCE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

function sendAsset(res: Response, file: string, next: NextFunction): void {
  setPageSecurityHeaders(res);
  res.sendFile(file, { maxAge: ASSET_MAX_AGE_MS, dotfiles: 'deny' }, (error) => {
    if (error && !res.headersSent) next(error);
  });
}

function sendPage(res: Response, html: string): void {
  setPageSecurityHeaders(res);
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-cache');
  res.type('html').send(html);
}
