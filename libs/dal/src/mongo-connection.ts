import type { cmsgMetrics } from '@cmsg/platform';
import mongoose from 'mongoose';
import { ALL_MODELS } from './models';
import { recordQueryShapes } from './query-shapes/query-shape-recorder';

export interface ConnectMongoOptions {
  /**
   * A directory to record the shape of every query this process sends into (CMSG_MONGO_SHAPE_LOG:
   * the integration suite's index check, docs/data-layer.md); unset, nothing is monitored.
   */
  queryShapeLog?: string;
  /** Who the recorded shapes come from: the app's name, or the test file. */
  queryShapeSource: string;
  /**
   * Where the operation-duration and pool metrics go (the apps: cmsgMetrics). Given by the caller,
   * so that a process that only reads and writes (a test, a tool) never loads the metrics stack.
   */
  metrics?: MongoMetrics;
}

/** The part of cmsgMetrics the connection reports to. */
export type MongoMetrics = Pick<typeof cmsgMetrics, 'mongodbOperation' | 'labelledGauge'>;

/**
 * One shared connection per process. autoIndex is off: indexes are created once, explicitly,
 * at service start (ensureIndexes), not lazily on first use of a model.
 */
export async function connectMongo(uri: string, options?: ConnectMongoOptions): Promise<typeof mongoose> {
  mongoose.set('strictQuery', true);
  mongoose.set('autoIndex', false);
  // Otherwise every query execution formats a stack trace, kept only to explain a query run twice
  // (a programming error): about 3 % of the CPU of a read-heavy service.
  mongoose.set('skipOriginalStackTraces', true);
  // Command monitoring feeds the operation-duration metric (and, in the integration suite, the query shapes).
  const connected = await mongoose.connect(uri, { serverSelectionTimeoutMS: 10000, maxPoolSize: 20, monitorCommands: true });
  const client = connected.connection.getClient();
  if (options?.metrics) reportMongoMetrics(client, options.metrics);
  if (options?.queryShapeLog !== undefined) recordQueryShapes(client, { directory: options.queryShapeLog, source: options.queryShapeSource });
  return connected;
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

/** Which server and database this process is connected to (`host:port/name`): a key for what is done once per database. */
export function connectedDatabaseKey(): string {
  const { host, port, name } = mongoose.connection;
  return `${host}:${port}/${name}`;
}

/** Whether an operation failed because no MongoDB server could be reached in time (server selection). */
export function isMongoUnreachableError(error: unknown): error is Error {
  return error instanceof mongoose.Error.MongooseServerSelectionError;
}

export async function disconnectMongo(): Promise<void> {
  await mongoose.disconnect();
}

let poolGaugeMade = false;
const pool = { open: 0, checkedOut: 0 };

/** cmsg_mongodb_operation_duration_seconds{command} and cmsg_mongodb_pool_connections{state: used | idle} (deploy/README.md, Monitoring). */
function reportMongoMetrics(client: ReturnType<typeof mongoose.connection.getClient>, metrics: MongoMetrics): void {
  client.on('commandSucceeded', (event) => metrics.mongodbOperation(event.commandName, event.duration / 1000));
  client.on('commandFailed', (event) => metrics.mongodbOperation(event.commandName, event.duration / 1000));
  client.on('connectionCreated', () => (pool.open += 1));
  client.on('connectionClosed', () => (pool.open = Math.max(0, pool.open - 1)));
  client.on('connectionCheckedOut', () => (pool.checkedOut += 1));
  client.on('connectionCheckedIn', () => (pool.checkedOut = Math.max(0, pool.checkedOut - 1)));
  if (poolGaugeMade) return;
  poolGaugeMade = true;
  metrics.labelledGauge('cmsg_mongodb_pool_connections', 'MongoDB driver pool connections, by state (used: checked out, idle).', () => [
    { attributes: { state: 'used' }, value: pool.checkedOut },
    { attributes: { state: 'idle' }, value: Math.max(0, pool.open - pool.checkedOut) },
  ]);
}
