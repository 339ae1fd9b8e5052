import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { WORKSPACE_ROOT } from '@cmsg/testing';
import { type CpuProfile, formatProfileSummary, summarizeCpuProfile } from './cpu-profile-summary';

/**
 * The profiles node wrote at exit (CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile) in
 * `directory`, printed per process summarised over its `windows` (monotonic microseconds, as
 * `monotonicMicros` reads them); `over` says what the windows are.
 */
export function printProcessProfiles(directory: string, pids: Record<string, number>, windows: Record<string, [number, number][]>, over: string): void {
  const files = readdirSync(directory).filter((file) => file.endsWith('.cpuprofile'));
  for (const [name, pid] of Object.entries(pids)) {
    const file = files.find((candidate) => candidate.split('.')[3] === String(pid));
    if (!file) {
      console.log(`\nno CPU profile of ${name} (pid ${pid}) in ${directory}`);
      continue;
    }
    const profile = JSON.parse(readFileSync(path.join(directory, file), 'utf8')) as CpuProfile;
    console.log(`\n${formatProfileSummary(`${name} CPU profile ${over} (${path.join(directory, file)})`, summarizeCpuProfile(profile, WORKSPACE_ROOT, windows[name] ?? []))}`);
  }
}

/** Now on the monotonic clock of V8 CPU profiles, in microseconds. */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}
