import { type ChildProcess, fork } from 'node:child_process';
import { constants, setPriority } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { FakeCloudApiRemote, startFakes } from '@cmsg/testing';

/** The hidden `npm run bench` subcommand the fakes' own process runs (bench main.ts). */
export const FAKES_SERVER_COMMAND = '__fakes';

interface FakesReady {
  chatApiBaseUrl: string;
  aiBaseUrl: string;
  env: Record<string, string>;
  /** Whether the process runs ahead of the stack's (a lower nice value; refused without the privilege). */
  raisedPriority: boolean;
}

/** How late the fakes' event loop ran its callbacks since the process started: an arrival is stamped up to this late. */
export interface FakesLoopDelay {
  p99Ms: number;
  maxMs: number;
}

export interface FakesProcess extends FakesReady {
  cloudApi: FakeCloudApiRemote;
  pid: number;
  loopDelay(): Promise<FakesLoopDelay>;
  stop(): Promise<void>;
}

/**
 * The fake Cloud API and AI provider in a process of their own, steered over their /_fake/ routes,
 * at a higher CPU priority than the stack when the machine allows. A provider runs on machines of
 * its own: a fake starved by the stack it measures (or sharing the benchmark's event loop) stamps
 * the calls that arrived while it waited all at once when it runs again, and counts them in a
 * window they did not arrive in.
 */
export function startFakesProcess(): Promise<FakesProcess> {
  const child = fork(process.argv[1]!, [FAKES_SERVER_COMMAND], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the fakes' process exited (${code}) before it listened`)));
    child.once('message', (ready: FakesReady) => {
      child.removeAllListeners('exit');
      resolve({
        ...ready,
        cloudApi: new FakeCloudApiRemote(ready.chatApiBaseUrl),
        pid: child.pid!,
        loopDelay: () => askLoopDelay(child),
        stop: () => stopChild(child),
      });
    });
  });
}

function askLoopDelay(child: ChildProcess): Promise<FakesLoopDelay> {
  return new Promise((resolve) => {
    child.once('message', (delay: FakesLoopDelay) => resolve(delay));
    child.send('loop-delay');
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.send('stop');
  });
}

/** The child's side: starts the fakes, tells the parent where they listen, stops them when told and answers its loop delay. */
export async function runFakesServer(): Promise<void> {
  const raisedPriority = raisePriority();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const fakes = await startFakes();
  process.send!({ chatApiBaseUrl: fakes.chatApiBaseUrl, aiBaseUrl: fakes.aiBaseUrl, env: fakes.env, raisedPriority } satisfies FakesReady);
  await new Promise<void>((stopped) => {
    // The benchmark ended without stopping them (a signal, a crash): nobody is left to ask.
    process.once('disconnect', stopped);
    process.on('message', (request: 'loop-delay' | 'stop') => {
      if (request === 'stop') stopped();
      else process.send!({ p99Ms: loop.percentile(99) / 1e6, maxMs: loop.max / 1e6 } satisfies FakesLoopDelay);
    });
  });
  loop.disable();
  await fakes.stop();
  if (process.connected) process.disconnect();
}

function raisePriority(): boolean {
  try {
    setPriority(constants.priority.PRIORITY_HIGH);
    return true;
  } catch {
    return false;
  }
}
