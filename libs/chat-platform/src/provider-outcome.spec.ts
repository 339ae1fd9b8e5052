import { CloudApiFailure } from './cloud-api-failure';
import { catalogCodeOfProviderCode, sendFailureError } from './provider-outcome';
import { retryDelayMs, sendDurationBoundMs } from './send-retry';

describe('provider outcomes (CONTRACT 10.3)', () => {
  it.each([
    [131047, 'WINDOW_CLOSED'],
    [131026, 'RECIPIENT_UNDELIVERABLE'],
    [131049, 'MARKETING_LIMIT_REACHED'],
    [131050, 'CONTACT_OPTED_OUT'],
    [130472, 'RECIPIENT_IN_EXPERIMENT'],
    [131048, 'SEND_FAILED'],
    [130429, 'SEND_FAILED'],
    [131056, 'SEND_FAILED'],
    [2, 'SEND_FAILED'],
  ])('maps %s to %s, as a number or a string', (code, catalogCode) => {
    expect(catalogCodeOfProviderCode(code)).toBe(catalogCode);
    expect(catalogCodeOfProviderCode(String(code))).toBe(catalogCode);
  });

  it('is SEND_FAILED without a provider code', () => {
    expect(catalogCodeOfProviderCode(undefined)).toBe('SEND_FAILED');
    expect(catalogCodeOfProviderCode(null)).toBe('SEND_FAILED');
    expect(catalogCodeOfProviderCode('')).toBe('SEND_FAILED');
  });

  it('builds the catalog error with the provider code as a string, null when there is none', () => {
    const refused = sendFailureError(new CloudApiFailure('HTTP 400, code 131050: stopped', { status: 400, providerError: { code: 131050 }, transient: false }));
    expect(refused).toMatchObject({ code: 'CONTACT_OPTED_OUT', httpStatus: 409, providerCode: '131050' });
    const silent = sendFailureError(new CloudApiFailure('no answer within 15000 ms', { transient: true }));
    expect(silent).toMatchObject({ code: 'SEND_FAILED', httpStatus: 502, providerCode: null });
  });
});

describe('send retries (CONTRACT 10.3, 10.5)', () => {
  const answered = (code: number) => new CloudApiFailure(`code ${code}`, { status: 400, providerError: { code }, transient: true });

  it('backs 130429 off exponentially from 1 s, stretched by up to half at random, 5 calls at most', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(answered(130429), attempt, 0))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(retryDelayMs(answered(130429), 1, 0.99)).toBe(1_495);
    expect(retryDelayMs(answered(130429), 5, 0)).toBeUndefined();
  });

  it('retries 131056 after 6 s, 3 calls at most', () => {
    expect(retryDelayMs(answered(131056), 1, 0.7)).toBe(6_000);
    expect(retryDelayMs(answered(131056), 2, 0.7)).toBe(6_000);
    expect(retryDelayMs(answered(131056), 3, 0.7)).toBeUndefined();
  });

  it('retries nothing else, and never a call without an answer', () => {
    expect(retryDelayMs(answered(131026), 1, 0)).toBeUndefined();
    expect(retryDelayMs(new CloudApiFailure('HTTP 503', { status: 503, providerError: { code: 2 }, transient: true }), 1, 0)).toBeUndefined();
    expect(retryDelayMs(new CloudApiFailure('no answer', { providerError: { code: 130429 }, transient: true }), 1, 0)).toBeUndefined();
    expect(retryDelayMs(new Error('not a provider failure'), 1, 0)).toBeUndefined();
  });

  it('bounds a send with its retries: 5 calls and the 4 longest waits', () => {
    expect(sendDurationBoundMs(15_000)).toBe(5 * 15_000 + 6_000 + 6_000 + 6_000 + 12_000);
  });
});
