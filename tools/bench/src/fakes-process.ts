import { type ChildProcess, fork } from 'node:child_process';
import { FakeCloudApiRemote, startFakes } from '@cmsg/testing';

/** The hidden `npm run bench` subcommand the fakes' own process runs (bench main.ts). */
export const FAKES_SERVER_COMMAND = '__fakes';

interface FakesReady {
  chatApiBaseUrl: string;
  aiBaseUrl: string;
  env: Record<string, string>;
}

export interface FakesProcess extends FakesReady {
  cloudApi: FakeCloudApiRemote;
  pid: number;
  stop(): Promise<void>;
}

/**
 * The fake Cloud API and AI provider in a process of their own, steered over their /_fake/ routes.
 * A provider is not in the sender's or the harness's process: sharing the benchmark's event loop
 * (its polling, sampling and figures) would stamp arrivals late in bunches and count them as the
 * product's.
 */
export function startFakesProcess(): Promise<FakesProcess> {
  const child = fork(process.argv[1]!, [FAKES_SERVER_COMMAND], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the fakes' process exited (${code}) before it listened`)));
    child.once('message', (ready: FakesReady) => {
      child.removeAllListeners('exit');
      resolve({ ...ready, cloudApi: new FakeCloudApiRemote(ready.chatApiBaseUrl), pid: child.pid!, stop: () => stopChild(child) });
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The child's side: starts the fakes, tells the parent where they listen, stops them on SIGTERM. */
export async function runFakesServer(): Promise<void> {
  const fakes = await startFakes();
  process.send!({ chatApiBaseUrl: fakes.chatApiBaseUrl, aiBaseUrl: fakes.aiBaseUrl, env: fakes.env } satisfies FakesReady);
  await new Promise<void>((stopped) => process.once('SIGTERM', () => stopped()));
  await fakes.stop();
  process.disconnect();
}
