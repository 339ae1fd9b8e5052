// Writes each test file's duration (ms) from jest JSON reports into test-durations.json, which
// longest-first-sequencer.js reads: `node tools/jest/record-test-durations.mjs .run/test-results/*.json`
// after a full `npm test` (reports of another clone name the same files under its own root). Files
// the reports do not name keep their recorded duration unless they no longer exist.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, '../..');
const recordFile = path.join(here, 'test-durations.json');

/** The file of this repository a report names, wherever the reporting clone was. */
function inThisRepository(reportedPath) {
  const segments = reportedPath.split(path.sep);
  for (let first = 0; first < segments.length; first += 1) {
    const relative = segments.slice(first).join('/');
    if (existsSync(path.join(repositoryRoot, relative))) return relative;
  }
  return undefined;
}

const durations = JSON.parse(readFileSync(recordFile, 'utf8'));
for (const report of process.argv.slice(2).filter((file) => existsSync(file))) {
  for (const suite of JSON.parse(readFileSync(report, 'utf8')).testResults ?? []) {
    const file = inThisRepository(suite.name);
    if (file !== undefined && suite.startTime > 0 && suite.endTime >= suite.startTime) durations[file] = suite.endTime - suite.startTime;
  }
}
const kept = Object.entries(durations)
  .filter(([file]) => existsSync(path.join(repositoryRoot, file)))
  .sort(([a], [b]) => a.localeCompare(b));
writeFileSync(recordFile, `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`);
console.log(`${kept.length} test files' durations in ${path.relative(process.cwd(), recordFile)}`);
