import { type CpuProfile, originOf, summarizeCpuProfile } from './cpu-profile-summary';

const ROOT = '/repo';

describe('summarizeCpuProfile', () => {
  const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({ id, callFrame: { functionName, url, lineNumber: 9 }, children });
  const profile: CpuProfile = {
    nodes: [
      frame(1, '(root)', '', [2, 3, 4, 5, 6]),
      frame(2, '(idle)', ''),
      frame(3, 'handle', 'file:///repo/node_modules/express/lib/router/index.js'),
      frame(4, 'sendUnaryMessage', 'file:///repo/node_modules/@grpc/grpc-js/build/src/client.js'),
      frame(5, 'requestIdMiddleware', 'file:///repo/dist/apps/gateway/main.js'),
      frame(6, '(garbage collector)', ''),
    ],
    startTime: 0,
    endTime: 800,
    samples: [2, 2, 3, 4, 4, 5, 6, 3],
    // One long gap (the process was descheduled) weighs as one sample, not as 400 µs.
    timeDeltas: [100, 100, 100, 100, 100, 100, 100, 400],
  };

  it('splits the busy self time by origin and by function, idle left out', () => {
    const summary = summarizeCpuProfile(profile, ROOT);
    expect(summary.totalMs).toBeCloseTo(0.8);
    expect(summary.busyMs).toBeCloseTo(0.6);
    expect(summary.byOrigin.map(({ name, share }) => [name, Number(share.toFixed(3))])).toEqual([
      ['express', 0.333],
      ['@grpc/grpc-js', 0.333],
      ['our code: dist/apps/gateway/main.js', 0.167],
      ['(garbage collector)', 0.167],
    ]);
    expect(summary.byFunction[0]).toMatchObject({ name: 'handle express/lib/router/index.js:10', ms: 0.2 });
  });

  it('keeps only the samples inside the given windows', () => {
    // Samples at 100, 200, ... 700 and 1100 µs: the window 250..550 holds the ones at 300, 400 and 500 (nodes 3, 4, 4).
    const summary = summarizeCpuProfile(profile, ROOT, [[250, 550]]);
    expect(summary.busyMs).toBeCloseTo(0.3);
    expect(summary.byOrigin.map(({ name }) => name)).toEqual(['@grpc/grpc-js', 'express']);
  });

  it('names Node core modules and V8 built-ins', () => {
    expect(originOf({ functionName: 'onStreamRead', url: 'node:internal/stream_base_commons' }, ROOT)).toBe('node:internal/stream_base_commons');
    expect(originOf({ functionName: 'writeHead', url: 'node:_http_server' }, ROOT)).toBe('node:_http_server');
    expect(originOf({ functionName: 'stringify', url: '' }, ROOT)).toBe('native (V8 built-ins, bindings)');
    expect(originOf({ functionName: '(program)', url: '' }, ROOT)).toBe('(program)');
  });
});
