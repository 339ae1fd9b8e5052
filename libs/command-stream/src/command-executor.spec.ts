import { createLogger, currentRequestId } from '@cmsg/platform';
import { CommandExecutor, type CommandJob } from './command-executor';
import type { CommandContext, PoisonHandler } from './consumer-options';

const logger = createLogger('command-executor-spec', 'silent');

function job(overrides: Partial<CommandJob<string>> = {}): CommandJob<string> {
  return {
    key: 'conversation-1',
    partition: 3,
    offset: '42',
    headers: {},
    rawValue: '"do it"',
    decoded: { ok: true, command: 'do it' },
    signal: new AbortController().signal,
    ...overrides,
  };
}

function executor(handler: (command: string, context: CommandContext) => Promise<void>, onPoison?: PoisonHandler<string>, stopSignal = new AbortController().signal) {
  return new CommandExecutor<string>({
    topic: 'conversation-commands',
    handler,
    onPoison,
    retryPolicy: { attempts: 3, initialBackoffMs: 1, maxBackoffMs: 5 },
    logger,
    stopSignal,
  });
}

describe('CommandExecutor', () => {
  it('runs the handler with the command context and the request id of the message', async () => {
    const seen: unknown[] = [];
    const run = executor(async (command, context) => {
      seen.push({ command, key: context.key, partition: context.partition, offset: context.offset, attempt: context.attempt, requestId: currentRequestId() });
    });
    expect(await run.run(job({ headers: { 'x-request-id': 'req-7' } }))).toBe(true);
    expect(seen).toEqual([{ command: 'do it', key: 'conversation-1', partition: 3, offset: '42', attempt: 1, requestId: 'req-7' }]);
    expect(run.counters).toEqual({ completed: 1, failedAttempts: 0, poisoned: 0 });
  });

  it('retries the same command until it succeeds', async () => {
    const attempts: number[] = [];
    const run = executor(async (_, { attempt }) => {
      attempts.push(attempt);
      if (attempt < 3) throw new Error('flaky');
    });
    expect(await run.run(job())).toBe(true);
    expect(attempts).toEqual([1, 2, 3]);
    expect(run.counters).toEqual({ completed: 1, failedAttempts: 2, poisoned: 0 });
  });

  it('dead-letters after the last attempt and reports the command done', async () => {
    const poisoned: unknown[] = [];
    const run = executor(
      async () => {
        throw new Error('always');
      },
      async (command, error, context) => {
        poisoned.push({ command, error: (error as Error).message, attempts: context.attempts, offset: context.offset, rawValue: context.rawValue });
      },
    );
    expect(await run.run(job())).toBe(true);
    expect(poisoned).toEqual([{ command: 'do it', error: 'always', attempts: 3, offset: '42', rawValue: '"do it"' }]);
  });

  it('dead-letters an undecodable message without calling the handler', async () => {
    const handler = jest.fn();
    const onPoison = jest.fn(async () => undefined);
    const run = executor(handler, onPoison);
    expect(await run.run(job({ decoded: { ok: false, error: new Error('bad JSON') }, rawValue: '{' }))).toBe(true);
    expect(handler).not.toHaveBeenCalled();
    expect(onPoison).toHaveBeenCalledWith(undefined, new Error('bad JSON'), expect.objectContaining({ attempts: 0, rawValue: '{' }));
  });

  it('still finishes the command when the dead-letter callback fails (logged, not silent)', async () => {
    const run = executor(
      async () => {
        throw new Error('always');
      },
      async () => {
        throw new Error('dead-letter store down');
      },
    );
    expect(await run.run(job())).toBe(true);
    expect(run.counters.poisoned).toBe(1);
  });

  it('gives the command up unfinished when its partition is revoked during a retry back-off', async () => {
    const revoked = new AbortController();
    const onPoison = jest.fn();
    const run = executor(async () => {
      revoked.abort();
      throw new Error('aborted by the revoke');
    }, onPoison);
    expect(await run.run(job({ signal: revoked.signal }))).toBe(false);
    expect(onPoison).not.toHaveBeenCalled();
  });

  it('stops retrying when the consumer stops, leaving the command for the next owner', async () => {
    const stopping = new AbortController();
    let calls = 0;
    const run = new CommandExecutor<string>({
      topic: 't',
      handler: async () => {
        calls++;
        stopping.abort();
        throw new Error('fails');
      },
      onPoison: undefined,
      retryPolicy: { attempts: 5, initialBackoffMs: 60_000, maxBackoffMs: 60_000 },
      logger,
      stopSignal: stopping.signal,
    });
    expect(await run.run(job())).toBe(false);
    expect(calls).toBe(1);
  });
});
