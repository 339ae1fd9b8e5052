import { dropDatabaseAt } from '@cmsg/testing-database';
import type { RunningFakes } from './fakes';
import type { LocalStack } from './local-stack';

export default async function globalTeardown(): Promise<void> {
  const state = globalThis as { __cmsgStack?: LocalStack; __cmsgFakes?: RunningFakes };
  const stack = state.__cmsgStack;
  if (!stack) {
    await state.__cmsgFakes?.stop();
    return;
  }
  await stack.stop();
  // After the apps: nothing calls the fakes any more.
  await state.__cmsgFakes?.stop();
  await dropRunDatabase(stack.description?.env['MONGODB_URI']);
}

/** Each run has a database of its own; dropping it keeps the memory-backed server's heap flat across runs. */
async function dropRunDatabase(uri: string | undefined): Promise<void> {
  if (!uri) return;
  await dropDatabaseAt(uri, { serverSelectionTimeoutMS: 5000 }).catch((error: unknown) => {
    process.stderr.write(`[integration] could not drop the run database: ${(error as Error).message}\n`);
  });
}
