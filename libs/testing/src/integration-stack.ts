import { readFileSync } from 'node:fs';
import { connectMongo } from '@cmsg/dal';
import type { StackDescription } from './local-stack';
import { STACK_FILE } from './stack-file';

let cached: StackDescription | undefined;

/** The stack that globalSetup started, as seen from a test worker. */
export function integrationStack(): StackDescription {
  cached ??= JSON.parse(readFileSync(STACK_FILE, 'utf8')) as StackDescription;
  return cached;
}

let connected: Promise<unknown> | undefined;

/** Tests seed their own business straight into the stack's database. */
export function connectToStackDatabase(): Promise<unknown> {
  connected ??= connectMongo(integrationStack().env['MONGODB_URI']!);
  return connected;
}
