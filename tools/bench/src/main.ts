import { mkdirSync } from 'node:fs';
import { constants } from 'node:os';
import { killLeftoverProcesses } from '@cmsg/testing';
import path from 'node:path';
import { actionFloorBenchmark } from './action-floor.bench';
import { actionGroupsBenchmark } from './action-groups.bench';
import { BARE_SERVER_COMMAND, runBareServer } from './bare-server-process';
import { type BenchmarkModule, takeJsonOption } from './benchmark-module';
import { broadcastsBenchmark } from './broadcasts.bench';
import { conversationReadsBenchmark } from './conversation-reads.bench';
import { FAKES_SERVER_COMMAND, runFakesServer } from './fakes-process';
import { FiguresRecorder } from './figures-recorder';
import { grpcReadsBenchmark } from './grpc-reads.bench';
import { mongoBackendsBenchmark } from './mongo-backends.bench';
import { scheduledMessagesBenchmark } from './scheduled-messages.bench';
import { uploadBench } from './upload.bench';
import { webhooksBenchmark } from './webhooks.bench';

/** `npm run bench -- <benchmark> [options] [--json FILE]`: each benchmark starts its own stack on loopback. */
const BENCHMARKS: Record<string, BenchmarkModule> = {
  'conversation-reads': conversationReadsBenchmark,
  'grpc-reads': grpcReadsBenchmark,
  'action-groups': actionGroupsBenchmark,
  'action-floor': actionFloorBenchmark,
  'scheduled-messages': scheduledMessagesBenchmark,
  upload: uploadBench,
  'mongo-backends': mongoBackendsBenchmark,
  webhooks: webhooksBenchmark,
  broadcasts: broadcastsBenchmark,
};

function usage(): string {
  const lines = Object.entries(BENCHMARKS).flatMap(([name, benchmark]) => [`  ${name}: ${benchmark.summary}`, ...benchmark.options.map((option) => `      ${option}`)]);
  return ['usage: npm run bench -- <benchmark> [options] [--json FILE]', '', '--json FILE also writes the figures, the parameters and the machine state as JSON.', '', 'benchmarks:', ...lines].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === BARE_SERVER_COMMAND) {
    await runBareServer();
    return 0;
  }
  if (name === FAKES_SERVER_COMMAND) {
    await runFakesServer();
    return 0;
  }
  const benchmark = BENCHMARKS[name];
  if (!benchmark) {
    console.error(`unknown benchmark ${JSON.stringify(name)}\n\n${usage()}`);
    return 2;
  }
  const { json, rest: options } = takeJsonOption(rest);
  // npm runs scripts from the workspace root; a relative FILE means where npm was called from.
  const jsonFile = json === undefined ? undefined : path.resolve(process.env['INIT_CWD'] ?? process.cwd(), json);
  if (jsonFile) mkdirSync(path.dirname(jsonFile), { recursive: true });
  const figures = new FiguresRecorder(name);
  await benchmark.run(options, figures);
  if (jsonFile) {
    figures.write(jsonFile);
    console.log(`\n${figures.figures.length} figures written to ${jsonFile}`);
  }
  return 0;
}

// A benchmark stopped by a signal ends its stacks' apps and servers with it, not to load the next measurement.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killLeftoverProcesses();
    process.exit(128 + constants.signals[signal]);
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  },
);
