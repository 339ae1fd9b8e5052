import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import type { LoadFigures } from './load-test';

export interface Figure {
  name: string;
  value: number;
  unit: string;
}

/** What `npm run bench -- <name> --json FILE` writes. */
export interface BenchmarkFiguresFile {
  benchmark: string;
  parameters: Record<string, unknown>;
  figures: Figure[];
  machine: {
    cpus: number;
    cpu_model: string;
    total_memory_bytes: number;
    /** 1, 5 and 15 minute load averages: the machine is shared, so a busy one shows here. */
    load_average_start: number[];
    load_average_end: number[];
    node_version: string;
    platform: string;
  };
  git: { commit: string; dirty: boolean } | null;
  started_at: string;
  finished_at: string;
}

/**
 * The figures of one benchmark run, besides the table it prints: each benchmark records what it
 * measured here, and the runner writes them with the run's parameters and the machine's state.
 */
export class FiguresRecorder {
  private readonly startedAt = new Date();
  private readonly loadAtStart = loadavg();
  private readonly recordedParameters: Record<string, unknown> = {};
  readonly figures: Figure[] = [];

  constructor(readonly benchmark: string) {}

  /** The options as the benchmark parsed them, defaults included; returns them. */
  parameters<Values extends object>(values: Values): Values {
    Object.assign(this.recordedParameters, values);
    return values;
  }

  record(name: string, value: number, unit: string): void {
    this.figures.push({ name, value, unit });
  }

  /** Throughput, latency percentiles and counts of one load run. */
  recordLoad(label: string, load: LoadFigures): void {
    this.record(`${label}: throughput`, load.requestsPerSecond, 'req/s');
    this.record(`${label}: latency p50`, load.p50Ms, 'ms');
    this.record(`${label}: latency p99`, load.p99Ms, 'ms');
    this.record(`${label}: requests`, load.total, 'requests');
    this.record(`${label}: non-2xx responses`, load.non2xx, 'responses');
    this.record(`${label}: errors`, load.errors, 'errors');
  }

  toFile(): BenchmarkFiguresFile {
    return {
      benchmark: this.benchmark,
      parameters: this.recordedParameters,
      figures: this.figures,
      machine: {
        cpus: cpus().length,
        cpu_model: cpus()[0]?.model ?? 'unknown',
        total_memory_bytes: totalmem(),
        load_average_start: this.loadAtStart,
        load_average_end: loadavg(),
        node_version: process.version,
        platform: `${process.platform} ${process.arch}`,
      },
      git: gitState(),
      started_at: this.startedAt.toISOString(),
      finished_at: new Date().toISOString(),
    };
  }

  write(file: string): void {
    writeFileSync(file, `${JSON.stringify(this.toFile(), null, 2)}\n`);
  }
}

/** The commit measured, and whether the work tree differed from it. */
function gitState(): { commit: string; dirty: boolean } | null {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return { commit, dirty: status.trim() !== '' };
  } catch {
    return null;
  }
}
