/** One sample of the Prometheus exposition text: `name{label="value",...} number`. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of an exposition text (comment lines skipped). */
export function parsePrometheusText(text: string): PrometheusSample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key!, value!]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The sum of the samples of a series whose labels include `labels` (a RegExp matches a label's value). */
export function sampleTotal(samples: readonly PrometheusSample[], name: string, labels: Record<string, string | RegExp> = {}): number {
  return samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, want]) => (typeof want === 'string' ? sample.labels[key] === want : want.test(sample.labels[key] ?? ''))))
    .reduce((sum, sample) => sum + sample.value, 0);
}
