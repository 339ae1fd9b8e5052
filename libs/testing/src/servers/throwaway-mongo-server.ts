import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../free-port';
import { WORKSPACE_ROOT } from '../infra-env';
import { trackLeftoverProcess } from '../leftover-processes';

export type MongoBackend = 'h2' | 'memory';

/** One mongo-java-server of our own, started by the project's launcher on a free port. */
export interface ThrowawayMongoServer {
  backend: MongoBackend;
  /** Without a database name. */
  uri: string;
  pid: number;
  /** From `infra.sh mongo-up` to its first answered ping. */
  startSeconds: number;
  /** Bytes of the H2 store on disk (0 for the memory backend). */
  storeBytes(): number;
  /** SIGSTOP: the server stops answering, connections stay open (a stalled primary). */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
  /** `mongo-down` then `mongo-up` on the same port and state directory (a new pid). */
  restart(): void;
  stop(): void;
}

/**
 * `infra.sh mongo-up` with its own port and state directory, so it shares nothing with the
 * machine's servers; `stop()` sends SIGTERM through `infra.sh mongo-down` and removes the directory.
 */
export async function startThrowawayMongoServer(backend: MongoBackend, settings: { oplogMaxEntries?: number } = {}): Promise<ThrowawayMongoServer> {
  const port = await freePort();
  const directory = mkdtempSync(path.join(tmpdir(), `cmsg-mongo-${backend}-`));
  // MONGODB_URI set (npm test exports it) would make infra.sh skip starting a server.
  const env: NodeJS.ProcessEnv = { ...process.env, CMSG_MONGO_BACKEND: backend, CMSG_MONGO_PORT: String(port), CMSG_MONGO_DIR: directory };
  if (settings.oplogMaxEntries !== undefined) env['CMSG_MONGO_OPLOG_MAX_ENTRIES'] = String(settings.oplogMaxEntries);
  delete env['MONGODB_URI'];
  const infra = (command: string) => execFileSync('bash', [path.join(WORKSPACE_ROOT, 'tools/infra/infra.sh'), command], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const started = Date.now();
  try {
    infra('mongo-up');
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  const startSeconds = (Date.now() - started) / 1000;
  const readPid = () => Number(readFileSync(path.join(directory, 'mongo.pid'), 'utf8').trim());
  let pid = readPid();
  const untrack = trackLeftoverProcess(() => infra('mongo-down'));
  return {
    backend,
    uri: `mongodb://127.0.0.1:${port}/`,
    get pid() {
      return pid;
    },
    startSeconds,
    storeBytes: () => {
      try {
        return statSync(path.join(directory, 'data.mv')).size;
      } catch {
        return 0;
      }
    },
    pause: () => process.kill(pid, 'SIGSTOP'),
    resume: () => process.kill(pid, 'SIGCONT'),
    restart: () => {
      infra('mongo-down');
      infra('mongo-up');
      pid = readPid();
    },
    stop: () => {
      try {
        infra('mongo-down');
      } finally {
        untrack();
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}

/** Resident memory of a process in bytes, from /proc/<pid>/status (Linux). */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0) * 1024;
}
