import path from 'node:path';

/** The parts of a V8 `.cpuprofile` (node --cpu-prof) the summary reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileShare {
  name: string;
  ms: number;
  /** Of the busy (not idle) time. */
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  busyMs: number;
  /** Self time by where the code comes from: an npm package, a Node core module, our bundle, GC. */
  byOrigin: ProfileShare[];
  /** Self time by function, the heaviest first. */
  byFunction: ProfileShare[];
}

const IDLE = '(idle)';

/**
 * Where the self time of a profile went, by origin and by function. `windows` (microseconds on the
 * monotonic clock the profile's timestamps use, which `process.hrtime` shares) keep only the
 * samples taken inside them: the measured runs, without start-up and seeding. Time is counted in
 * samples of the profile's mean interval: on a busy machine the process is descheduled between
 * samples, and one gap would otherwise be charged whole to the function that happened to be sampled.
 */
export function summarizeCpuProfile(profile: CpuProfile, workspaceRoot: string, windows?: readonly [number, number][], top = 20): ProfileSummary {
  const meanInterval = profile.samples.length > 0 ? (profile.endTime - profile.startTime) / profile.samples.length : 0;
  const selfMicros = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((nodeId, index) => {
    at += profile.timeDeltas[index] ?? 0;
    if (windows && !windows.some(([from, to]) => at >= from && at <= to)) return;
    selfMicros.set(nodeId, (selfMicros.get(nodeId) ?? 0) + meanInterval);
  });
  const byOrigin = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let idleMicros = 0;
  let totalMicros = 0;
  for (const node of profile.nodes) {
    const micros = selfMicros.get(node.id) ?? 0;
    totalMicros += micros;
    if (node.callFrame.functionName === IDLE) {
      idleMicros += micros;
      continue;
    }
    if (micros === 0) continue;
    const origin = originOf(node.callFrame, workspaceRoot);
    byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + micros);
    const name = `${node.callFrame.functionName || '(anonymous)'} ${locationOf(node.callFrame, workspaceRoot)}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  }
  const busyMicros = totalMicros - idleMicros;
  const shares = (entries: Map<string, number>, limit: number): ProfileShare[] =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, micros]) => ({ name, ms: micros / 1000, share: busyMicros > 0 ? micros / busyMicros : 0 }));
  return { totalMs: totalMicros / 1000, busyMs: busyMicros / 1000, byOrigin: shares(byOrigin, top), byFunction: shares(byFunction, top) };
}

/** `express`, `@grpc/grpc-js`, `node:internal/streams`, `our code: dist/apps/gateway/main.js`, `(garbage collector)`... */
export function originOf(frame: { functionName: string; url: string }, workspaceRoot: string): string {
  const { url } = frame;
  if (url === '') return frame.functionName.startsWith('(') ? frame.functionName : 'native (V8 built-ins, bindings)';
  if (url.startsWith('node:')) {
    const [first, second] = url.slice('node:'.length).split('/');
    return first === 'internal' && second ? `node:internal/${second.replace(/\.js$/, '')}` : `node:${first}`;
  }
  const file = url.startsWith('file://') ? url.slice('file://'.length) : url;
  const packages = file.lastIndexOf('/node_modules/');
  if (packages >= 0) {
    const [scopeOrName, name] = file.slice(packages + '/node_modules/'.length).split('/');
    return scopeOrName!.startsWith('@') ? `${scopeOrName}/${name}` : scopeOrName!;
  }
  return `our code: ${path.relative(workspaceRoot, file)}`;
}

function locationOf(frame: { url: string; lineNumber: number }, workspaceRoot: string): string {
  if (frame.url === '') return '';
  const file = frame.url.startsWith('file://') ? frame.url.slice('file://'.length) : frame.url;
  const shown = file.includes('/node_modules/') ? file.slice(file.lastIndexOf('/node_modules/') + '/node_modules/'.length) : path.relative(workspaceRoot, file) || file;
  return `${shown}:${frame.lineNumber + 1}`;
}

/** The summary as lines for the benchmark's output. */
export function formatProfileSummary(label: string, summary: ProfileSummary): string {
  const row = (share: ProfileShare) => `    ${(share.share * 100).toFixed(1).padStart(5)}%  ${share.ms.toFixed(0).padStart(7)} ms  ${share.name}`;
  return [
    `${label}: ${summary.busyMs.toFixed(0)} ms busy of ${summary.totalMs.toFixed(0)} ms profiled`,
    '  self time by origin:',
    ...summary.byOrigin.map(row),
    '  self time by function:',
    ...summary.byFunction.map(row),
  ].join('\n');
}
