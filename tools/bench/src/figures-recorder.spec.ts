import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BenchmarkFiguresFile, FiguresRecorder } from './figures-recorder';

describe('FiguresRecorder', () => {
  it('writes the figures with their units, the parameters, the machine and the commit', () => {
    const figures = new FiguresRecorder('conversation-reads');
    expect(figures.parameters({ duration: 10, connections: 10 })).toEqual({ duration: 10, connections: 10 });
    figures.record('status ratio', 0.8, 'x');
    figures.recordLoad('status full', { requestsPerSecond: 120.5, p50Ms: 7, p99Ms: 21, total: 1205, non2xx: 0, errors: 0 });
    const directory = mkdtempSync(path.join(tmpdir(), 'bench-figures-'));
    try {
      const file = path.join(directory, 'figures.json');
      figures.write(file);
      const written = JSON.parse(readFileSync(file, 'utf8')) as BenchmarkFiguresFile;
      expect(written.benchmark).toBe('conversation-reads');
      expect(written.parameters).toEqual({ duration: 10, connections: 10 });
      expect(written.figures).toEqual([
        { name: 'status ratio', value: 0.8, unit: 'x' },
        { name: 'status full: throughput', value: 120.5, unit: 'req/s' },
        { name: 'status full: latency p50', value: 7, unit: 'ms' },
        { name: 'status full: latency p99', value: 21, unit: 'ms' },
        { name: 'status full: requests', value: 1205, unit: 'requests' },
        { name: 'status full: non-2xx responses', value: 0, unit: 'responses' },
        { name: 'status full: errors', value: 0, unit: 'errors' },
      ]);
      expect(written.machine.cpus).toBeGreaterThan(0);
      expect(written.machine.load_average_start).toHaveLength(3);
      expect(written.machine.load_average_end).toHaveLength(3);
      expect(written.machine.node_version).toBe(process.version);
      expect(written.git?.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(Date.parse(written.finished_at)).toBeGreaterThanOrEqual(Date.parse(written.started_at));
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
