import mongoose from 'mongoose';
import type { LocalStack } from './local-stack';

export default async function globalTeardown(): Promise<void> {
  const stack = (globalThis as { __cmsgStack?: LocalStack }).__cmsgStack;
  if (!stack) return;
  await stack.stop();
  const uri = stack.description?.env['MONGODB_URI'];
  if (uri) {
    // Each run has its own database; drop it so repeated runs don't accumulate data.
    const connection = await mongoose.createConnection(uri).asPromise();
    await connection.dropDatabase().catch(() => undefined);
    await connection.close();
  }
}
