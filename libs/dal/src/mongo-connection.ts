import mongoose from 'mongoose';
import { ALL_MODELS } from './models';

/**
 * One shared connection per process. autoIndex is off: indexes are created once, explicitly,
 * at service start (ensureIndexes), not lazily on first use of a model.
 */
export async function connectMongo(uri: string): Promise<typeof mongoose> {
  mongoose.set('strictQuery', true);
  mongoose.set('autoIndex', false);
  return mongoose.connect(uri, { serverSelectionTimeoutMS: 10000, maxPoolSize: 20 });
}

export async function ensureIndexes(): Promise<void> {
  for (const model of ALL_MODELS) await model.createIndexes();
}

export function isMongoConnected(): boolean {
  return mongoose.connection.readyState === mongoose.ConnectionStates.connected;
}

export async function disconnectMongo(): Promise<void> {
  await mongoose.disconnect();
}
