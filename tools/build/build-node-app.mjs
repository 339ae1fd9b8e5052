// Bundles one Node entry point (an app or a tool) with esbuild into dist/<project root>/main.js.
// Workspace libs are inlined through the tsconfig path aliases; npm packages stay external so
// the OpenTelemetry instrumentations can patch them when they are required.
// Usage: node tools/build/build-node-app.mjs <project root, e.g. apps/gateway>
import { build } from 'esbuild';
import path from 'node:path';

const projectRoot = process.argv[2];
if (!projectRoot) {
  console.error('usage: build-node-app.mjs <project root>');
  process.exit(2);
}
const workspaceRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

await build({
  absWorkingDir: workspaceRoot,
  entryPoints: [path.join(projectRoot, 'src/main.ts')],
  outfile: path.join('dist', projectRoot, 'main.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  sourcemap: true,
  tsconfig: 'tsconfig.base.json',
  logLevel: 'warning',
});
