import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { AppProcess } from './app-process';
import { freePort } from './free-port';
import { WORKSPACE_ROOT, ensureInfrastructure, withDatabase } from './infra-env';
import { deleteRunTopicsAndGroups } from './run-kafka-cleanup';

export const STACK_APPS = ['conversations', 'scheduler', 'actions-runner', 'gateway'] as const;

export interface LocalStackOptions {
  /** How many gateway replicas (they share Redis, so rate limits are global). */
  gateways?: number;
  /**
   * How many actions-runner replicas (default 1), each with its own gRPC and metrics port, all in
   * the same consumer groups: `actions-runner`, then `actions-runner-2`... Every replica of a gRPC
   * service is in its address (`ipv4:` list), which the clients balance over (round_robin).
   */
  actionsRunners?: number;
  /** How many conversations service replicas (default 1): `conversations`, then `conversations-2`... */
  conversationsServices?: number;
  /** How many scheduler replicas (default 1): `scheduler`, then `scheduler-2`... */
  schedulers?: number;
  /** Extra environment of one process by its name (`actions-runner-2`, `gateway-1`...), over `env`. */
  processEnv?: Record<string, Record<string, string>>;
  /** Extra environment for every app (fake provider URLs, limits...). */
  env?: Record<string, string>;
  build?: boolean;
  logDir?: string;
  /** Options for node in every app process (benchmarks: `--cpu-prof`). */
  nodeArgs?: string[];
  /** The fake provider servers the apps were pointed at through `env`, recorded for the tests. */
  fakes?: StackFakes;
  /** Another MongoDB server than the machine's shared one (a benchmark's own); the stack still gets a database of its own on it. */
  mongodbUri?: string;
}

/** Where the fake chat platform and AI provider of a stack listen (their base URLs, as the apps got them). */
export interface StackFakes {
  chatApiBaseUrl: string;
  aiBaseUrl: string;
}

/** What tests and benchmarks need to reach a running stack. */
export interface StackDescription {
  runId: string;
  gatewayUrls: string[];
  env: Record<string, string>;
  logDir: string;
  pids: Record<string, number>;
  /** Each process's Prometheus endpoint (`http://127.0.0.1:<port>/metrics`), by process name. */
  metricsUrls: Record<string, string>;
  /** Present when the stack runs against the fakes (the integration suite always does). */
  fakes?: StackFakes;
}

/**
 * The whole product on loopback: real infrastructure from tools/infra, a database and Kafka topic
 * prefix of its own, and each app as its own process.
 */
export class LocalStack {
  readonly processes: AppProcess[] = [];
  description: StackDescription | undefined;
  /** The Kafka brokers and topic prefix of this run, known from start() on: stop() deletes its topics. */
  private kafkaRun: { brokers: string[]; prefix: string } | undefined;

  constructor(private readonly options: LocalStackOptions = {}) {}

  async start(): Promise<StackDescription> {
    const infra = ensureInfrastructure();
    if (this.options.build !== false) buildApps();
    const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
    const logDir = this.options.logDir ?? path.join(WORKSPACE_ROOT, 'tmp/stack-logs', runId);
    const replicaPorts = async (count: number | undefined) => {
      const ports: number[] = [];
      for (let replica = 0; replica < (count ?? 1); replica += 1) ports.push(await freePort());
      return ports;
    };
    const grpcPorts = {
      conversations: await replicaPorts(this.options.conversationsServices),
      scheduler: await replicaPorts(this.options.schedulers),
      'actions-runner': await replicaPorts(this.options.actionsRunners),
    };
    const env: Record<string, string> = {
      MONGODB_URI: withDatabase(this.options.mongodbUri ?? infra.MONGODB_URI, `cmsg_run_${runId}`),
      KAFKA_BROKERS: infra.KAFKA_BROKERS,
      REDIS_URL: infra.REDIS_URL,
      KAFKA_TOPIC_PREFIX: `run-${runId}.`,
      KAFKAJS_NO_PARTITIONER_WARNING: '1',
      SIGNING_SECRET: `stack-secret-${runId}-${randomBytes(8).toString('hex')}`,
      CHAT_APP_SECRET: `chat-app-secret-${runId}-${randomBytes(8).toString('hex')}`,
      CHAT_VERIFY_TOKEN: `chat-verify-token-${runId}`,
      CONVERSATIONS_GRPC_ADDRESS: grpcTarget(grpcPorts.conversations),
      SCHEDULER_GRPC_ADDRESS: grpcTarget(grpcPorts.scheduler),
      ACTIONS_GRPC_ADDRESS: grpcTarget(grpcPorts['actions-runner']),
      LOG_LEVEL: 'info',
      // Local plaintext without caller credentials, said explicitly (production refuses it); a test
      // that needs TLS or tokens passes its own through `env`.
      GRPC_ALLOW_INSECURE: 'true',
      // Each process of the stack gets a port of its own below; other processes a test starts from
      // this env serve no metrics unless the test gives them a port.
      METRICS_PORT: '0',
      ...this.options.env,
    };
    this.kafkaRun = { brokers: env['KAFKA_BROKERS']!.split(','), prefix: env['KAFKA_TOPIC_PREFIX']! };
    const nodeArgs = this.options.nodeArgs ?? [];
    const gatewayPorts: number[] = [];
    for (let index = 0; index < (this.options.gateways ?? 1); index += 1) gatewayPorts.push(await freePort());
    env['PUBLIC_BASE_URL'] ??= `http://127.0.0.1:${gatewayPorts[0]}`;

    const metricsPorts: Record<string, number> = {};
    const metricsEnv = async (name: string) => ({ METRICS_PORT: String((metricsPorts[name] = await freePort())) });
    const newProcess = async (name: string, app: string, own: Record<string, string>) =>
      new AppProcess(name, app, { ...env, ...own, ...(await metricsEnv(name)), ...this.options.processEnv?.[name] }, logDir, nodeArgs);
    for (const [app, ports] of Object.entries(grpcPorts)) {
      for (const [index, port] of ports.entries()) {
        this.processes.push(await newProcess(replicaName(app, index), app, { GRPC_ADDRESS: `127.0.0.1:${port}` }));
      }
    }
    for (const [index, port] of gatewayPorts.entries()) {
      this.processes.push(await newProcess(`gateway-${index + 1}`, 'gateway', { PORT: String(port) }));
    }
    for (const appProcess of this.processes) appProcess.start();

    const gatewayUrls = gatewayPorts.map((port) => `http://127.0.0.1:${port}`);
    try {
      await Promise.all(gatewayUrls.map((url) => waitForReady(`${url}/readyz`, 90000)));
    } catch (error) {
      const tails = this.processes.map((appProcess) => `--- ${appProcess.name} ---\n${appProcess.logTail(25)}`).join('\n');
      await this.stop();
      throw new Error(`stack did not become ready: ${(error as Error).message}\n${tails}`);
    }
    this.description = {
      runId,
      gatewayUrls,
      env,
      logDir,
      pids: Object.fromEntries(this.processes.map((appProcess) => [appProcess.name, appProcess.pid ?? 0])),
      metricsUrls: Object.fromEntries(Object.entries(metricsPorts).map(([name, port]) => [name, `http://127.0.0.1:${port}/metrics`])),
      ...(this.options.fakes ? { fakes: this.options.fakes } : {}),
    };
    return this.description;
  }

  process(name: string): AppProcess {
    const found = this.processes.find((appProcess) => appProcess.name === name);
    if (!found) throw new Error(`no process ${name}`);
    return found;
  }

  async stop(): Promise<void> {
    // Gateways first so no new work arrives, then the services.
    for (const appProcess of [...this.processes].reverse()) await appProcess.stop();
    const kafkaRun = this.kafkaRun;
    this.kafkaRun = undefined;
    if (kafkaRun) {
      await deleteRunTopicsAndGroups(kafkaRun.brokers, kafkaRun.prefix).catch((error: Error) => {
        process.stderr.write(`[stack] could not delete the Kafka topics ${kafkaRun.prefix}*: ${error.message}\n`);
      });
    }
  }
}

/** The process name of a service's replica: `conversations`, then `conversations-2`... */
export function replicaName(app: string, index: number): string {
  return index === 0 ? app : `${app}-${index + 1}`;
}

/** One replica's address, or every replica's as an `ipv4:` target the gRPC clients balance over. */
function grpcTarget(ports: number[]): string {
  return ports.length === 1 ? `127.0.0.1:${ports[0]}` : `ipv4:${ports.map((port) => `127.0.0.1:${port}`).join(',')}`;
}

/** Builds every app as its project's build target does, the gateway's guides and page assets included. */
export function buildApps(): void {
  const run = (script: string, ...args: string[]) => execFileSync(process.execPath, [path.join(WORKSPACE_ROOT, script), ...args], { cwd: WORKSPACE_ROOT, stdio: 'inherit' });
  for (const app of STACK_APPS) run('tools/build/build-node-app.mjs', `apps/${app}`);
  run('tools/build/copy-gateway-assets.mjs');
}

export async function waitForReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastProblem = 'no answer';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
      lastProblem = `${response.status} ${await response.text()}`;
    } catch (error) {
      lastProblem = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms: ${lastProblem}`);
}
