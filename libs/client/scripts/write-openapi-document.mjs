// Writes the OpenAPI document of libs/api-schemas to a file, without a running gateway: the
// schemas are bundled with esbuild (tsconfig path aliases, npm packages left external) and run.
// Usage: node libs/client/scripts/write-openapi-document.mjs <out file>
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const outFile = process.argv[2];
if (!outFile) {
  console.error('usage: write-openapi-document.mjs <out file>');
  process.exit(2);
}
const workspaceRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
// Inside the workspace, so the bundle's require() finds the workspace's node_modules.
mkdirSync(path.join(workspaceRoot, 'tmp'), { recursive: true });
const scratch = mkdtempSync(path.join(workspaceRoot, 'tmp', 'openapi-'));
try {
  const bundle = path.join(scratch, 'api-schemas.cjs');
  await build({
    absWorkingDir: workspaceRoot,
    entryPoints: ['libs/api-schemas/src/index.ts'],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    tsconfig: 'tsconfig.base.json',
    logLevel: 'warning',
  });
  const require = createRequire(import.meta.url);
  const { buildOpenApiDocument } = require(bundle);
  writeFileSync(outFile, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
