import { MongoClient } from 'mongodb';
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
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.connect();
    await client.db().dropDatabase();
  } catch (error) {
    process.stderr.write(`[integration] could not drop the run database: ${(error as Error).message}\n`);
  } finally {
    await client.close();
  }
}
