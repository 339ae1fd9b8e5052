import { withTimeout } from '@cmsg/platform';

/** One dependency /readyz waits for; check() rejects while it is not usable. */
export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<void>;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, 'ok' | 'failing'>;
  failures: { name: string; error: unknown }[];
}

/** Runs every check in parallel, each bounded by `timeoutMs`. */
export async function checkReadiness(checks: readonly ReadinessCheck[], timeoutMs: number): Promise<ReadinessReport> {
  const results = await Promise.allSettled(checks.map((check) => withTimeout(check.check(), timeoutMs, `${check.name} did not answer within ${timeoutMs} ms`)));
  const report: ReadinessReport = { ready: true, checks: {}, failures: [] };
  results.forEach((result, index) => {
    const { name } = checks[index];
    report.checks[name] = result.status === 'fulfilled' ? 'ok' : 'failing';
    if (result.status === 'rejected') {
      report.ready = false;
      report.failures.push({ name, error: result.reason });
    }
  });
  return report;
}
