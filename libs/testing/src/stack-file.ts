import path from 'node:path';
import { WORKSPACE_ROOT } from './infra-env';

/** Where globalSetup leaves the stack description for the test workers. */
export const STACK_FILE = path.join(WORKSPACE_ROOT, 'tmp/integration-stack.json');
