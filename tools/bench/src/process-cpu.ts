import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Linux reports process CPU time in clock ticks of 1/100 s (`getconf CLK_TCK`). */
const TICKS_PER_SECOND = 100;

/** User plus system CPU seconds a process has used so far, from /proc/<pid>/stat (Linux). */
export function processCpuSeconds(pid: number): number {
  return cpuSecondsOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** The command name may hold spaces and parentheses: the fields are counted after its last `)`. */
export function cpuSecondsOfStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 (utime) and 15 (stime) of proc(5); fields[0] is field 3 (state).
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`unexpected /proc stat line: ${stat.slice(0, 80)}`);
  return (utime + stime) / TICKS_PER_SECOND;
}

/** CPU seconds each named process used between `start()` and `stop()`; one gone or unreadable at either end is left out. */
export class CpuMeter {
  private started: Record<string, number> = {};

  constructor(private readonly pids: Readonly<Record<string, number>>) {}

  start(): void {
    this.started = cpuSecondsByProcess(this.pids);
  }

  stop(): Record<string, number> {
    const stopped = Object.entries(cpuSecondsByProcess(this.pids)).filter(([name]) => name in this.started);
    return Object.fromEntries(stopped.map(([name, seconds]) => [name, seconds - this.started[name]!]));
  }
}

function cpuSecondsByProcess(pids: Readonly<Record<string, number>>): Record<string, number> {
  const seconds: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) {
    try {
      seconds[name] = processCpuSeconds(pid);
    } catch {
      // Gone or not readable: left out.
    }
  }
  return seconds;
}

/** The infrastructure servers of a stack's environment by the port they listen on (ss names the owning process). */
export function infraServerPids(env: Readonly<Record<string, string>>): Record<string, number> {
  const ports: Record<string, string | undefined> = {
    mongodb: env['MONGODB_URI'] ? new URL(env['MONGODB_URI']).port : undefined,
    kafka: env['KAFKA_BROKERS']?.split(',')[0]?.split(':')[1],
    redis: env['REDIS_URL'] ? new URL(env['REDIS_URL']).port : undefined,
  };
  const pids: Record<string, number> = {};
  for (const [name, port] of Object.entries(ports)) {
    if (!port) continue;
    try {
      const line = execFileSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' });
      const pid = /pid=(\d+)/.exec(line)?.[1];
      if (pid) pids[name] = Number(pid);
    } catch {
      // No ss here: CPU of the servers is not reported.
    }
  }
  return pids;
}
