import { DEFAULT_OPT_IN_KEYWORDS, DEFAULT_OPT_OUT_KEYWORDS, consentKeywordOf } from './consent-keywords';

describe('consentKeywordOf (CONTRACT 10.2)', () => {
  it.each(DEFAULT_OPT_OUT_KEYWORDS)('reads %s as an opt-out', (keyword) => {
    expect(consentKeywordOf(keyword, null)).toBe('opted_out');
  });

  it.each(DEFAULT_OPT_IN_KEYWORDS)('reads %s as an opt-in', (keyword) => {
    expect(consentKeywordOf(keyword, null)).toBe('opted_in');
  });

  it.each([['  stop  '], ['Stop'], ['bájà'], ['PARÁR'], ['\tStart\n']])('folds case, accents and surrounding space: %j', (text) => {
    expect(consentKeywordOf(text, null)).not.toBeNull();
  });

  it.each([['please stop'], ['stop!'], ['STOP STOP'], [''], ['   '], ['stopping'], ['hola']])('reads nothing in %j', (text) => {
    expect(consentKeywordOf(text, null)).toBeNull();
  });

  it('takes a business\'s own lists instead of the defaults, each on its own', () => {
    const lists = { opt_out: ['Salir'], opt_in: null };
    expect(consentKeywordOf('SALIR', lists)).toBe('opted_out');
    expect(consentKeywordOf('stop', lists)).toBeNull();
    expect(consentKeywordOf('start', lists)).toBe('opted_in');
    expect(consentKeywordOf('Volver', { opt_in: ['volver'] })).toBe('opted_in');
  });
});
