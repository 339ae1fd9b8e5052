// Copies what the gateway serves from disk beside its bundle: the Markdown guides (docs/*.md) for
// GET /docs/guides and the reference page's own script and stylesheet for GET /docs/assets.
// Usage: node tools/build/copy-gateway-assets.mjs (after build-node-app.mjs apps/gateway)
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const workspaceRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const bundleDirectory = path.join(workspaceRoot, 'dist/apps/gateway');

copyFiles(path.join(workspaceRoot, 'docs'), path.join(bundleDirectory, 'guides'), (name) => name.endsWith('.md'));
copyFiles(path.join(workspaceRoot, 'apps/gateway/src/api-reference/browser'), path.join(bundleDirectory, 'api-reference'), () => true);

function copyFiles(from, to, wanted) {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from).filter(wanted)) cpSync(path.join(from, name), path.join(to, name));
}
