import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type RunningFakes, startFakes } from './fakes';
import { WORKSPACE_ROOT } from './infra-env';
import { LocalStack } from './local-stack';
import { QUERY_SHAPE_LOG_VARIABLE, startQueryShapeRecording } from './query-shapes/query-shape-recording';
import { stackFileForThisRun } from './stack-file';

/**
 * Jest globalSetup of the integration suite: the fake chat platform and AI provider, then one stack
 * (two gateway replicas) pointed at them, for the whole run. Tests steer and inspect the fakes
 * through their /_fake/ endpoints at the URLs in the stack description. Every process that talks to
 * MongoDB, the test workers included, records the shapes of its queries for the index check that
 * runs after the suite (jest.index-shapes.config.js).
 */
export default async function globalSetup(): Promise<void> {
  const shapeLog = startQueryShapeRecording();
  const fakes = await startFakes();
  // Webhook receivers are local HTTP servers (docs/webhooks.md, URL rules); retries come after a second, not five.
  const env = { ...fakes.env, [QUERY_SHAPE_LOG_VARIABLE]: shapeLog, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '1000' };
  const stack = new LocalStack({ gateways: 2, env, fakes: { chatApiBaseUrl: fakes.chatApiBaseUrl, aiBaseUrl: fakes.aiBaseUrl } });
  let description;
  try {
    description = await stack.start();
  } catch (error) {
    await fakes.stop();
    throw error;
  }
  const stackFile = stackFileForThisRun();
  mkdirSync(path.dirname(stackFile), { recursive: true });
  writeFileSync(stackFile, JSON.stringify(description, null, 2));
  const state = globalThis as { __cmsgStack?: LocalStack; __cmsgFakes?: RunningFakes };
  state.__cmsgStack = stack;
  state.__cmsgFakes = fakes;
  process.stderr.write(`\n[integration] stack ${description.runId} ready; logs in ${path.relative(WORKSPACE_ROOT, description.logDir)}\n`);
}
