import { integerOptions, percentile, takeJsonOption } from './benchmark-module';

describe('benchmark helpers', () => {
  it('parses integer options with defaults', () => {
    expect(integerOptions(['--duration', '5'], { duration: 30, conversations: 200 })).toEqual({ duration: 5, conversations: 200 });
    expect(() => integerOptions(['--duration', '0'], { duration: 30 })).toThrow('--duration');
    expect(() => integerOptions(['--nope', '1'], { duration: 30 })).toThrow();
  });

  it('computes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, index) => index + 1);
    expect([percentile(values, 50), percentile(values, 99), percentile(values, 100)]).toEqual([50, 99, 100]);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('takes --json FILE out of the benchmark options', () => {
    expect(takeJsonOption(['--duration', '5', '--json', 'out/reads.json'])).toEqual({ json: 'out/reads.json', rest: ['--duration', '5'] });
    expect(takeJsonOption(['--json=r.json', '--connections', '4'])).toEqual({ json: 'r.json', rest: ['--connections', '4'] });
    expect(takeJsonOption(['--duration', '5'])).toEqual({ json: undefined, rest: ['--duration', '5'] });
    expect(() => takeJsonOption(['--json'])).toThrow('--json needs a file name');
    expect(() => takeJsonOption(['--json', '--duration', '5'])).toThrow('--json needs a file name');
    expect(() => takeJsonOption(['--json='])).toThrow('--json needs a file name');
  });
});
