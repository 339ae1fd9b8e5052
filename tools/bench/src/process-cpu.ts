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

/** CPU seconds each named process used between `start()` and `stop()`. */
export class CpuMeter {
  private readonly started = new Map<string, number>();

  constructor(private readonly pids: Readonly<Record<string, number>>) {}

  start(): void {
    for (const [name, pid] of Object.entries(this.pids)) this.started.set(name, processCpuSeconds(pid));
  }

  stop(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.pids).map(([name, pid]) => [name, processCpuSeconds(pid) - (this.started.get(name) ?? 0)]));
  }
}
