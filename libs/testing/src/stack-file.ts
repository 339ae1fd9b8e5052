import path from 'node:path';
import { WORKSPACE_ROOT } from './infra-env';

const STACK_FILE_VARIABLE = 'CMSG_STACK_FILE';

/**
 * Where globalSetup leaves the stack description for the test workers: one file per jest run
 * (several runs may share a machine), handed to the workers through the environment.
 */
export function stackFileForThisRun(): string {
  const file = path.join(WORKSPACE_ROOT, 'tmp', `integration-stack-${process.pid}.json`);
  process.env[STACK_FILE_VARIABLE] = file;
  return file;
}

export function stackFileOfCurrentRun(): string {
  const file = process.env[STACK_FILE_VARIABLE];
  if (!file) throw new Error(`${STACK_FILE_VARIABLE} is not set: run integration tests with jest.integration.config.js`);
  return file;
}
