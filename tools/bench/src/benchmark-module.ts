import { parseArgs } from 'node:util';
import type { FiguresRecorder } from './figures-recorder';

/** One `npm run bench -- <name> [options]` subcommand. */
export interface BenchmarkModule {
  summary: string;
  /** Option lines for the help text. */
  options: string[];
  /** Prints its table and records the same figures in `figures` (written by `--json FILE`). */
  run(argv: string[], figures: FiguresRecorder): Promise<void>;
}

/** Every benchmark's `--json FILE` (or `--json=FILE`), taken out of its own options. */
export function takeJsonOption(argv: readonly string[]): { json: string | undefined; rest: string[] } {
  const rest: string[] = [];
  let json: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    if (argument === '--json') {
      json = argv[index + 1];
      if (json === undefined || json.startsWith('--')) throw new Error('--json needs a file name');
      index += 1;
    } else if (argument.startsWith('--json=')) {
      json = argument.slice('--json='.length);
      if (json === '') throw new Error('--json needs a file name');
    } else {
      rest.push(argument);
    }
  }
  return { json, rest };
}

/** `--name value` options as positive integers, each with a default. */
export function integerOptions<const Name extends string>(argv: string[], defaults: Record<Name, number>): Record<Name, number> {
  const { values } = parseArgs({
    args: argv,
    options: Object.fromEntries(Object.keys(defaults).map((name) => [name, { type: 'string' as const }])),
    strict: true,
  });
  const parsed = { ...defaults };
  for (const name of Object.keys(defaults) as Name[]) {
    const raw = values[name];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got ${String(raw)}`);
    parsed[name] = value;
  }
  return parsed;
}

/** Nearest-rank percentile of already sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** The middle value, or the mean of the two middle values of an even count. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
