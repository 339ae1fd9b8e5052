import mongoose from 'mongoose';
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
  const uri = stack.description?.env['MONGODB_URI'];
  if (uri) {
    // Each run has its own database; drop it so repeated runs don't accumulate data.
    // Bounded: FerretDB can hold a drop behind other databases' work; leaving the data behind
    // is harmless (every run has its own database), hanging the test run is not.
    const connection = await mongoose.createConnection(uri, { serverSelectionTimeoutMS: 5000 }).asPromise();
    await Promise.race([connection.dropDatabase().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    await connection.close(true);
  }
}
