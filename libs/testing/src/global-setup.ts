import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WORKSPACE_ROOT } from './infra-env';
import { LocalStack } from './local-stack';
import { STACK_FILE } from './stack-file';

/** Jest globalSetup of the integration suite: one stack (two gateway replicas) for the whole run. */
export default async function globalSetup(): Promise<void> {
  const stack = new LocalStack({ gateways: 2 });
  const description = await stack.start();
  mkdirSync(path.dirname(STACK_FILE), { recursive: true });
  writeFileSync(STACK_FILE, JSON.stringify(description, null, 2));
  (globalThis as { __cmsgStack?: LocalStack }).__cmsgStack = stack;
  process.stderr.write(`\n[integration] stack ${description.runId} ready; logs in ${path.relative(WORKSPACE_ROOT, description.logDir)}\n`);
}
