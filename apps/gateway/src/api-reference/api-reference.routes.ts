import { CatalogError } from '@cmsg/errors';
import type { Express, Response } from 'express';
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
  const pages = { reference: referencePage(guides), guideIndex: guideIndexPage(guides) };
  const getOnly = methodNotAllowedMiddleware(['get']);

  app
    .route(API_REFERENCE_PATHS.reference)
    .get((_req, res) => sendPage(res, pages.reference))
    .all(getOnly);

  app
    .route(`${API_REFERENCE_PATHS.assets}/:asset`)
    .get((req, res, next) => {
      const file = assetFiles.get(req.params.asset);
      if (!file) {
        next(new CatalogError('NOT_FOUND'));
        return;
      }
      res.setHeader('Content-Security-Policy', API_REFERENCE_CSP);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.sendFile(file, { maxAge: ASSET_MAX_AGE_MS, dotfiles: 'deny' }, (error) => {
        if (error && !res.headersSent) next(error);
      });
    })
    .all(getOnly);

  app
    .route(API_REFERENCE_PATHS.guides)
    .get((_req, res) => sendPage(res, pages.guideIndex))
    .all(getOnly);

  app
    .route(`${API_REFERENCE_PATHS.guides}/:guide`)
    .get((req, res, next) => {
      const guide = guides.get(req.params.guide);
      if (!guide) {
        next(new CatalogError('NOT_FOUND'));
        return;
      }
      sendPage(res, guidePage(guide, guides));
    })
    .all(getOnly);
}

function sendPage(res: Response, html: string): void {
  res.setHeader('Content-Security-Policy', API_REFERENCE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-cache');
  res.type('html').send(html);
}
