import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { type Server, type Socket, connect, createServer } from 'node:net';
import { AppProcess, eventually, freePort, integrationStack } from '@cmsg/testing';
import { waitForReady } from '@cmsg/testing/local-stack';

jest.setTimeout(300_000);

/** A TCP relay in front of the stack's MongoDB that the test can cut and restore. */
class CuttableRelay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
  ) {}

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  /** Nothing gets through any more: open connections drop, new ones are refused. */
  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server?.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

/**
 * /readyz names MongoDB when it is down. The gateway has no MongoDB connection of its own: it asks
 * the conversations service, whose health answers for a MongoDB ping. A conversations service and
 * a gateway of this test's own reach the stack's MongoDB through a relay the test cuts.
 */
describe('GET /readyz and MongoDB', () => {
  const processes: AppProcess[] = [];
  let relay: CuttableRelay;
  let readyz: string;

  beforeAll(async () => {
    const stack = integrationStack();
    const mongo = new URL(stack.env['MONGODB_URI']!);
    relay = new CuttableRelay({ host: mongo.hostname, port: Number(mongo.port) }, await freePort());
    await relay.open();
    const throughRelay = new URL(mongo.toString());
    throughRelay.port = String(relay.port);
    const [conversationsPort, gatewayPort] = [await freePort(), await freePort()];
    const env = {
      ...stack.env,
      MONGODB_URI: throughRelay.toString(),
      // Topics and consumer groups of its own: this conversations service must not take the stack's partitions.
      KAFKA_TOPIC_PREFIX: `${stack.env['KAFKA_TOPIC_PREFIX']}readyz-${randomUUID().slice(0, 8)}.`,
      CONVERSATIONS_GRPC_ADDRESS: `127.0.0.1:${conversationsPort}`,
    };
    const logDir = `${stack.logDir}/readiness-test`;
    processes.push(
      new AppProcess('conversations-readyz', 'conversations', { ...env, GRPC_ADDRESS: env.CONVERSATIONS_GRPC_ADDRESS }, logDir),
      new AppProcess('gateway-readyz', 'gateway', { ...env, PORT: String(gatewayPort) }, logDir),
    );
    for (const appProcess of processes) appProcess.start();
    readyz = `http://127.0.0.1:${gatewayPort}/readyz`;
    await waitForReady(readyz, 90_000);
  });

  afterAll(async () => {
    for (const appProcess of [...processes].reverse()) await appProcess.stop('SIGKILL');
    await relay.cut();
  });

  const readiness = async () => {
    const response = await fetch(readyz, { signal: AbortSignal.timeout(5000) });
    return { status: response.status, body: (await response.json()) as { code?: string; message?: string; checks: Record<string, string> } };
  };
  /** Asks /readyz until the answer satisfies `wanted` (a loaded MongoDB may pause a few seconds). */
  const untilReadiness = async (wanted: (answer: Awaited<ReturnType<typeof readiness>>) => boolean, timeoutMs = 120_000) => {
    const deadline = Date.now() + timeoutMs;
    let answer = await readiness().catch(() => undefined);
    while (!(answer && wanted(answer)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = await readiness().catch(() => undefined);
    }
    return answer;
  };

  it('reports mongodb ok while MongoDB answers', async () => {
    const answer = await untilReadiness((found) => found.status === 200);
    expect(answer).toMatchObject({ status: 200, body: { checks: { mongodb: 'ok', 'grpc:conversations': 'ok' } } });
  });

  it('answers 503 naming mongodb once MongoDB stops answering, and ready again when it is back', async () => {
    await relay.cut();
    const down = await untilReadiness((found) => found.status === 503 && found.body.checks['mongodb'] === 'failing', 30_000);
    expect(down).toMatchObject({ status: 503, body: { code: 'SERVICE_UNAVAILABLE', checks: { mongodb: 'failing' } } });
    expect(down!.body.message).toContain('mongodb');

    await relay.open();
    // The driver reconnects on its next heartbeat (10 s), then the ping answers again.
    const back = await untilReadiness((found) => found.status === 200);
    expect(back).toMatchObject({ status: 200, body: { checks: { mongodb: 'ok' } } });
  });
});

/**
 * /readyz is not ready before the command consumers hold their partitions (issue 30): an
 * actions-runner answers SERVING only once its consumers joined their groups. Shown with a runner
 * that restarts after a crash, whose join waits out the dead member's session: it listens at once
 * but stays not ready until it joined.
 */
describe('GET /readyz and the command consumers', () => {
  const SESSION_TIMEOUT_MS = 10_000;
  const processes: AppProcess[] = [];
  let readyz: string;
  let runnerEnv: Record<string, string>;
  let logDir: string;
  const startRunner = (name: string) => {
    const runner = new AppProcess(name, 'actions-runner', runnerEnv, logDir);
    processes.push(runner);
    runner.start();
    return runner;
  };
  // The log file appears once the process writes to it.
  const logOf = (runner: AppProcess) => (existsSync(runner.logFile) ? readFileSync(runner.logFile, 'utf8') : '');
  const readyzAnswer = async () => {
    const response = await fetch(readyz, { signal: AbortSignal.timeout(5000) });
    return { status: response.status, checks: ((await response.json()) as { checks: Record<string, string> }).checks };
  };

  beforeAll(async () => {
    const stack = integrationStack();
    const [runnerPort, gatewayPort] = [await freePort(), await freePort()];
    runnerEnv = {
      ...stack.env,
      // Topics and consumer groups of its own, and a dead member noticed after 10 s rather than 30 s.
      KAFKA_TOPIC_PREFIX: `${stack.env['KAFKA_TOPIC_PREFIX']}readyz-${randomUUID().slice(0, 8)}.`,
      GRPC_ADDRESS: `127.0.0.1:${runnerPort}`,
      COMMAND_SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS),
    };
    logDir = `${stack.logDir}/readiness-consumers-test`;
    startRunner('actions-runner-readyz-1');
    const gateway = new AppProcess('gateway-readyz-consumers', 'gateway', { ...stack.env, PORT: String(gatewayPort), ACTIONS_GRPC_ADDRESS: runnerEnv['GRPC_ADDRESS']! }, logDir);
    processes.push(gateway);
    gateway.start();
    readyz = `http://127.0.0.1:${gatewayPort}/readyz`;
    await waitForReady(readyz, 90_000);
  });

  afterAll(async () => {
    for (const appProcess of [...processes].reverse()) await appProcess.stop('SIGKILL');
  });

  it('a runner restarted after a crash listens at once and is ready only once its consumers joined', async () => {
    const first = processes[0]!;
    expect(logOf(first)).toContain('command stream: joined group');
    await first.stop('SIGKILL');
    const second = startRunner('actions-runner-readyz-2');
    await eventually(async () => logOf(second), (log) => log.includes('actions-runner listening'), 60_000);
    const whileJoining = await readyzAnswer();
    // Its group still counts the killed member until the session ends: no join yet.
    expect(logOf(second)).not.toContain('command stream: joined group');
    expect(whileJoining).toMatchObject({ status: 503, checks: { 'grpc:actions': expect.not.stringMatching(/^ok$/) } });

    await eventually(async () => logOf(second), (log) => log.includes('command stream: joined group'), SESSION_TIMEOUT_MS + 60_000);
    const joined = await eventually(readyzAnswer, (answer) => answer.status === 200, 15_000);
    expect(joined.checks['grpc:actions']).toBe('ok');
  });
});
