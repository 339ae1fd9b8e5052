import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePortPair } from '../free-port';
import { WORKSPACE_ROOT } from '../infra-env';

const runFile = promisify(execFile);

/** A Kafka broker of our own (the project's jars, KRaft, one node), so restarting it touches no other stack. */
export interface ThrowawayKafkaBroker {
  brokers: string;
  /** `kafka-down` then `kafka-up` on the same ports and log directory: its topics and offsets survive. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `infra.sh kafka-up` with its own ports and state directory (CMSG_KAFKA_PORT, CMSG_KAFKA_DIR).
 * Asynchronous throughout: a caller's fake servers in this process go on answering meanwhile.
 */
export async function startThrowawayKafkaBroker(): Promise<ThrowawayKafkaBroker> {
  const port = await freePortPair();
  const directory = mkdtempSync(path.join(tmpdir(), 'cmsg-kafka-'));
  // KAFKA_BROKERS set (npm test exports it) would make infra.sh skip starting a broker.
  const env: NodeJS.ProcessEnv = { ...process.env, CMSG_KAFKA_PORT: String(port), CMSG_KAFKA_DIR: directory };
  delete env['KAFKA_BROKERS'];
  const infra = async (command: string): Promise<string> => (await runFile('bash', [path.join(WORKSPACE_ROOT, 'tools/infra/infra.sh'), command], { env })).stderr;
  const stop = async () => {
    try {
      await infra('kafka-down');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  };
  try {
    await infra('kafka-up');
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    brokers: `127.0.0.1:${port}`,
    restart: async () => {
      const log = (await infra('kafka-down')) + (await infra('kafka-up'));
      if (!log.includes('kafka: starting Kafka')) throw new Error(`infra.sh kafka-up did not start the broker again:\n${log}`);
    },
    stop,
  };
}
