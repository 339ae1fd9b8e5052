import { checkReadiness } from './readiness-check';

describe('checkReadiness', () => {
  it('is ready when every check passes', async () => {
    const report = await checkReadiness([{ name: 'a', check: async () => undefined }, { name: 'b', check: async () => undefined }], 100);
    expect(report).toEqual({ ready: true, checks: { a: 'ok', b: 'ok' }, failures: [] });
  });

  it('names the failing and the hanging checks', async () => {
    const failure = new Error('down');
    const report = await checkReadiness(
      [
        { name: 'ok', check: async () => undefined },
        { name: 'down', check: async () => Promise.reject(failure) },
        { name: 'hangs', check: () => new Promise<void>(() => undefined) },
      ],
      50,
    );
    expect(report.ready).toBe(false);
    expect(report.checks).toEqual({ ok: 'ok', down: 'failing', hangs: 'failing' });
    expect(report.failures.map((entry) => entry.name)).toEqual(['down', 'hangs']);
    expect(report.failures[0].error).toBe(failure);
  });
});
