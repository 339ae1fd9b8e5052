import { actionGroupsBenchmark } from './action-groups.bench';
import type { BenchmarkModule } from './benchmark-module';
import { conversationReadsBenchmark } from './conversation-reads.bench';
import { grpcReadsBenchmark } from './grpc-reads.bench';
import { scheduledMessagesBenchmark } from './scheduled-messages.bench';
import { uploadBench } from './upload.bench';

/** `npm run bench -- <benchmark> [options]`: each benchmark starts its own stack on loopback. */
const BENCHMARKS: Record<string, BenchmarkModule> = {
  'conversation-reads': conversationReadsBenchmark,
  'grpc-reads': grpcReadsBenchmark,
  'action-groups': actionGroupsBenchmark,
  'scheduled-messages': scheduledMessagesBenchmark,
  upload: uploadBench,
};

function usage(): string {
  const lines = Object.entries(BENCHMARKS).flatMap(([name, benchmark]) => [`  ${name}: ${benchmark.summary}`, ...benchmark.options.map((option) => `      ${option}`)]);
  return ['usage: npm run bench -- <benchmark> [options]', '', 'benchmarks:', ...lines].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  const benchmark = BENCHMARKS[name];
  if (!benchmark) {
    console.error(`unknown benchmark ${JSON.stringify(name)}\n\n${usage()}`);
    return 2;
  }
  await benchmark.run(rest);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  },
);
