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

/**
 * Whether MongoDB answers a ping within timeoutMs. The driver's connection state alone lags: it
 * still says connected for a while after the server stopped answering.
 */
export async function pingMongo(timeoutMs: number): Promise<boolean> {
  const db = mongoose.connection.db;
  if (!db || !isMongoConnected()) return false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ping = db
    .command({ ping: 1 }, { timeoutMS: timeoutMs })
    .then((answer) => answer['ok'] === 1)
    .catch(() => false);
  return Promise.race([ping, timeout]).finally(() => clearTimeout(timer));
}

export async function disconnectMongo(): Promise<void> {
  await mongoose.disconnect();
}
