import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../free-port';
import { WORKSPACE_ROOT } from '../infra-env';

const MONGO_JARS = 'mongo-java-server-1.47.0';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `infra.sh down` (what `npm stop` runs) in a cache of its own, holding a memory server (as
 * `npm test` and `npm run bench` start) and an H2 server (as `npm start` does) on ports of their own.
 */
describe('infra.sh down', () => {
  const infraHome = mkdtempSync(path.join(tmpdir(), 'cmsg-infra-down-'));
  const env: NodeJS.ProcessEnv = { ...process.env, CMSG_INFRA_HOME: infraHome };
  for (const name of ['MONGODB_URI', 'KAFKA_BROKERS', 'REDIS_URL', 'CMSG_MONGO_DIR', 'CMSG_MONGO_BACKEND', 'CMSG_MONGO_PORT']) delete env[name];
  const infra = (command: string, extra: NodeJS.ProcessEnv = {}) =>
    execFileSync('bash', [path.join(WORKSPACE_ROOT, 'tools/infra/infra.sh'), command], { env: { ...env, ...extra }, stdio: ['ignore', 'ignore', 'pipe'] });
  const started: number[] = [];

  beforeAll(() => {
    // The jars of the machine's own cache (installed by `infra.sh up` before the suite): nothing is fetched again.
    symlinkSync(path.join(process.env['CMSG_INFRA_HOME'] ?? path.join(homedir(), '.cache/cmsg-infra'), MONGO_JARS), path.join(infraHome, MONGO_JARS));
  });

  afterAll(() => {
    for (const pid of started) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(infraHome, { recursive: true, force: true });
  });

  it('stops the MongoDB of either backend, not only the one CMSG_MONGO_BACKEND names', async () => {
    const servers = [
      { backend: 'memory', port: await freePort() },
      { backend: 'h2', port: await freePort() },
    ];
    const pidfiles = servers.map(({ backend, port }) => {
      infra('mongo-up', { CMSG_MONGO_BACKEND: backend, CMSG_MONGO_PORT: String(port) });
      const pidfile = path.join(infraHome, 'run', `mongo-${backend}-${port}`, 'mongo.pid');
      started.push(Number(readFileSync(pidfile, 'utf8').trim()));
      return pidfile;
    });
    expect(started.map(isAlive)).toEqual([true, true]);

    // As `npm stop` runs it: the default backend (h2) on its default port, which holds neither server.
    infra('down');

    expect(started.map(isAlive)).toEqual([false, false]);
    expect(pidfiles.map((pidfile) => existsSync(pidfile))).toEqual([false, false]);
  }, 120_000);
});
