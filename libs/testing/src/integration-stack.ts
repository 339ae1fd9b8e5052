import { readFileSync } from 'node:fs';
import { connectMongo } from '@cmsg/dal';
import type { StackDescription, StackFakes } from './local-stack';
import { QUERY_SHAPE_LOG_VARIABLE, inProcessQueryShapeSource } from './query-shapes/query-shape-recording';
import { stackFileOfCurrentRun } from './stack-file';

let cached: StackDescription | undefined;

/** The stack that globalSetup started, as seen from a test worker. */
export function integrationStack(): StackDescription {
  cached ??= JSON.parse(readFileSync(stackFileOfCurrentRun(), 'utf8')) as StackDescription;
  return cached;
}

/** The fakes the integration stack runs against (started by globalSetup). */
export function integrationFakes(): StackFakes {
  const { fakes } = integrationStack();
  if (!fakes) throw new Error(`the stack in ${stackFileOfCurrentRun()} was started without fakes`);
  return fakes;
}

let connected: Promise<unknown> | undefined;

/** Tests seed their own business straight into the stack's database; the queries they send are recorded as theirs. */
export function connectToStackDatabase(): Promise<unknown> {
  connected ??= connectMongo(integrationStack().env['MONGODB_URI']!, {
    queryShapeLog: process.env[QUERY_SHAPE_LOG_VARIABLE],
    queryShapeSource: inProcessQueryShapeSource(expect.getState().testPath),
  });
  return connected;
}
