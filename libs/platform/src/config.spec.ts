import { booleanVar, intVar, loadConfig } from './config';

describe('config variables', () => {
  const load = (env: NodeJS.ProcessEnv) => loadConfig({ COUNT: intVar(12), DELAY_MS: intVar(0, { min: 0, max: 60_000 }), ENABLED: booleanVar('false') }, env);

  it('takes the defaults when unset', () => {
    expect(load({})).toEqual({ COUNT: 12, DELAY_MS: 0, ENABLED: false });
  });

  it('parses integers and switches (true/false, 1/0)', () => {
    expect(load({ COUNT: '3', DELAY_MS: '60000', ENABLED: 'true' })).toEqual({ COUNT: 3, DELAY_MS: 60_000, ENABLED: true });
    expect(load({ ENABLED: '1' }).ENABLED).toBe(true);
    expect(load({ ENABLED: '0' }).ENABLED).toBe(false);
  });

  it('refuses an integer below 1 unless a lower bound is given, above the upper bound, or not whole; and any other switch value', () => {
    expect(() => load({ COUNT: '0' })).toThrow(/COUNT/);
    expect(() => load({ COUNT: '1.5' })).toThrow(/COUNT/);
    expect(() => load({ DELAY_MS: '-1' })).toThrow(/DELAY_MS/);
    expect(() => load({ DELAY_MS: '60001' })).toThrow(/DELAY_MS/);
    expect(() => load({ ENABLED: 'yes' })).toThrow(/ENABLED: expected true or false/);
  });
});
