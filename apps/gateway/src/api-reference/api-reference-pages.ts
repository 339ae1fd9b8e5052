import { UNSCOPED_PATHS } from '@cmsg/api-schemas';
import { type Guide, escapeHtml } from './guides';

export const API_REFERENCE_PATHS = {
  reference: UNSCOPED_PATHS.apiReference,
  assets: UNSCOPED_PATHS.apiReferenceAssets,
  guides: UNSCOPED_PATHS.guides,
  document: UNSCOPED_PATHS.openApiDocument,
} as const;

/** The guides named in the bar above every page, in this order; the others are on the guides index. */
const FEATURED_GUIDES = ['integrating', 'messaging', 'webhooks', 'broadcasts'];

/** GET /docs: Swagger UI on the document, started by api-reference.js. */
export function referencePage(guides: ReadonlyMap<string, Guide>): string {
  return page({
    title: 'API reference',
    guides,
    head: `<link rel="stylesheet" href="${API_REFERENCE_PATHS.assets}/swagger-ui.css">`,
    body: `<main id="api-reference"></main>
<script src="${API_REFERENCE_PATHS.assets}/swagger-ui-bundle.js"></script>
<script src="${API_REFERENCE_PATHS.assets}/api-reference.js"></script>`,
  });
}

/** GET /docs/guides: every guide by title. */
export function guideIndexPage(guides: ReadonlyMap<string, Guide>): string {
  const items = [...guides.values()]
    .map((guide) => `<li><a href="${API_REFERENCE_PATHS.guides}/${guide.name}">${escapeHtml(guide.title)}</a></li>`)
    .join('\n');
  return page({
    title: 'Guides',
    guides,
    body: `<main class="cmsg-guide"><h1>Guides</h1>
<p>How to do things with the API, beside the <a href="${API_REFERENCE_PATHS.reference}">reference</a> of every operation. Start with <a href="${API_REFERENCE_PATHS.guides}/integrating">Integrating</a>.</p>
<ul class="cmsg-guide-list">${items}</ul></main>`,
  });
}

/** GET /docs/guides/{guide}. */
export function guidePage(guide: Guide, guides: ReadonlyMap<string, Guide>): string {
  return page({ title: guide.title, guides, body: `<main class="cmsg-guide">${guide.html}</main>` });
}

function page({ title, guides, head = '', body }: { title: string; guides: ReadonlyMap<string, Guide>; head?: string; body: string }): string {
  const featured = FEATURED_GUIDES.flatMap((name) => {
    const guide = guides.get(name);
    return guide ? [`<a href="${API_REFERENCE_PATHS.guides}/${guide.name}">${escapeHtml(shortTitle(guide.title))}</a>`] : [];
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · cmsg API</title>
<link rel="icon" type="image/png" href="${API_REFERENCE_PATHS.assets}/favicon-32x32.png">
${head}
<link rel="stylesheet" href="${API_REFERENCE_PATHS.assets}/api-reference.css">
</head>
<body>
<nav class="cmsg-docs-bar" aria-label="Documentation">
<span class="cmsg-docs-title">cmsg API</span>
<a href="${API_REFERENCE_PATHS.reference}">Reference</a>
<a href="${API_REFERENCE_PATHS.guides}">Guides</a>
${featured.join('\n')}
<a href="${API_REFERENCE_PATHS.document}">openapi.json</a>
</nav>
${body}
</body>
</html>
`;
}

/** "Integrating: from zero to a working integration" → "Integrating". */
function shortTitle(title: string): string {
  return title.split(/[:(—]/)[0]!.trim();
}
