// Prints each failed test of the jest JSON reports given (one line each: file, test, the failure's
// first line), so that the end of a long `npm test` log says what failed without scrolling back.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const firstLine = (text) =>
  text
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '' && !line.startsWith('●')) ?? '';

for (const report of process.argv.slice(2).filter((file) => existsSync(file))) {
  const { testResults = [] } = JSON.parse(readFileSync(report, 'utf8'));
  for (const suite of testResults) {
    const file = path.relative(process.cwd(), suite.name);
    const failed = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) console.log(`failed: ${file} › ${test.fullName}: ${firstLine(test.failureMessages?.join('\n') ?? '').slice(0, 300)}`);
    if (failed.length === 0 && suite.status === 'failed') console.log(`failed: ${file} (did not run): ${firstLine(suite.message ?? '').slice(0, 300)}`);
  }
}
