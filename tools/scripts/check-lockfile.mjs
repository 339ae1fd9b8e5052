// Checks that package-lock.json lets `npm ci` install on any machine: it matches package.json, and
// every dependency of every locked package, optional platform builds included (a lock written where
// the registry lacked them made `npm ci` refuse on a fresh clone), resolves to a locked entry. Also
// that it keeps the format .npmrc asks for (integrity on every entry, no registry URLs), so an
// install with other settings shows up as a change instead of passing unnoticed. Part of npm test.
//
// Usage: node tools/scripts/check-lockfile.mjs
import fs from 'node:fs';
import path from 'node:path';

const workspace = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(workspace, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(path.join(workspace, 'package-lock.json'), 'utf8'));
const problems = [];

function sameEntries(a = {}, b = {}) {
  return JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
}

/** Where Node (and npm) would find `name` required from the package at `location`. */
function resolve(location, name) {
  let from = location;
  for (;;) {
    const candidate = from ? `${from}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!from) return undefined;
    const parent = from.lastIndexOf('/node_modules/');
    from = parent === -1 ? '' : from.slice(0, parent);
  }
}

if (lock.lockfileVersion !== 3) problems.push(`lockfileVersion is ${lock.lockfileVersion}, expected 3`);
const root = lock.packages[''] ?? {};
for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
  if (!sameEntries(root[field], manifest[field])) problems.push(`package.json ${field} differ from the lock file's: run npm install and commit package-lock.json`);
}

let checked = 0;
for (const [location, entry] of Object.entries(lock.packages)) {
  if (!location || entry.link) continue;
  checked += 1;
  if (!entry.integrity) problems.push(`${location}: no integrity`);
  if (entry.resolved) problems.push(`${location}: has a registry URL (resolved); .npmrc omits them`);
  for (const name of [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {})]) {
    if (!resolve(location, name)) problems.push(`${location}: ${name} is not in the lock file`);
  }
}
for (const name of [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]) {
  if (!lock.packages[`node_modules/${name}`]) problems.push(`${name} (package.json) is not in the lock file`);
}

for (const problem of problems) console.error(`ERROR ${problem}`);
console.log(`${problems.length ? 'FAILED' : 'OK'}: ${checked} locked packages, ${problems.length} problem(s)`);
process.exit(problems.length ? 1 : 0);
