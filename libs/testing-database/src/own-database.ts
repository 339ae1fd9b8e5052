import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';

/** Where a test file finds MongoDB: the run's server (MONGODB_URI), else the local test server. */
const testServerUri = (): string => process.env['MONGODB_URI'] ?? 'mongodb://127.0.0.1:27118/';

export interface OwnDatabaseOptions {
  /** Keeps the driver's command events on, for specs that watch what a write sends (watchMongoCommands). */
  monitorCommands?: boolean;
}

/**
 * Connects this process's shared connection to the database a URI names (a stack's of its own),
 * waiting up to `serverSelectionTimeoutMS` for a server that may be restarting.
 */
export async function connectToDatabase(uri: string, options: { serverSelectionTimeoutMS: number }): Promise<void> {
  await mongoose.connect(uri, options);
}

/**
 * Connects this process's shared connection (the one the repositories use) to a new database of the
 * test file's own, `<label>_<random>`, on the run's MongoDB server: for specs that drive a library
 * against the real server without the stack, where another file's documents would get in the way
 * (claims and sweeps across businesses). Dropped by dropConnectedDatabase().
 */

export async function connectToOwnDatabase(label: string, options: OwnDatabaseOptions = {}): Promise<void> {
  await mongoose.connect(testServerUri(), {
    dbName: `${label}_${randomBytes(4).toString('hex')}`,
    serverSelectionTimeoutMS: 10_000,
    ...(options.monitorCommands ? { monitorCommands: true } : {}),
  });
}

/**
 * Drops the database this process is connected to (if it is) and closes the connection: a test
 * file's own database when it is done, so the memory-backed server's heap stays flat across runs.
 */
export async function dropConnectedDatabase(): Promise<void> {
  if (mongoose.connection.readyState === mongoose.ConnectionStates.connected) await mongoose.connection.dropDatabase();
  await mongoose.disconnect();
}

/** Drops the database a URI names, through a connection of its own (a run's or a child process's database). */
export async function dropDatabaseAt(uri: string, options: { serverSelectionTimeoutMS: number } = { serverSelectionTimeoutMS: 10_000 }): Promise<void> {
  const client = new mongoose.mongo.MongoClient(uri, options);
  try {
    await client.connect();
    await client.db().dropDatabase();
  } finally {
    await client.close();
  }
}
