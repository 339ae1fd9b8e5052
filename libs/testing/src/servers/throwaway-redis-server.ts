import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { freePort } from '../free-port';

/** A redis-server of our own (Debian's binary, installed by tools/infra), in memory only, on a free port. */
export interface ThrowawayRedisServer {
  url: string;
  /** SIGKILL: Redis is gone, connections refused. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: it persists nothing). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startThrowawayRedisServer(): Promise<ThrowawayRedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        if (execFileSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).trim() === 'PONG') return;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const kill = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, kill, restart: start, stop: kill };
}
