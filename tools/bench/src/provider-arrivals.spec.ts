import { type ProviderArrival, acceptedPerBucket, acceptedRateBetween, arrivalFigures } from './provider-arrivals';

const sent = (at_ms: number, to: string): ProviderArrival => ({ at_ms, to, status: 200 });
const throttled = (at_ms: number, to: string): ProviderArrival => ({ at_ms, to, status: 400, error_code: 130429 });

describe('arrivalFigures', () => {
  it('reads pacing and duplicates from the sends the provider saw', () => {
    const arrivals = [sent(1000, 'a'), sent(1100, 'b'), throttled(1150, 'c'), sent(1300, 'c'), sent(2100, 'd'), { at_ms: 2150, to: 'e', status: 400, error_code: 131026 }, sent(3000, 'b')];
    expect(arrivalFigures(arrivals)).toEqual({
      calls: 7,
      accepted: 5,
      throttled: 1,
      otherRefusals: 1,
      recipientsReached: 4,
      acceptedMoreThanOnce: 1,
      calledMoreThanOnce: 2,
      // 1000, 1100, 1150, 1300 share a window; 2100 is 1,000 ms after 1100, so not with it.
      maxCallsInAnySecond: 4,
      maxAcceptedInAnySecond: 3,
      meanAcceptedPerSecond: 2,
      gapP50Ms: 200,
      gapP99Ms: 900,
      durationMs: 2000,
    });
  });

  it('answers NaN rates and no duration for fewer than two sends', () => {
    const figures = arrivalFigures([sent(5, 'a')]);
    expect(figures.durationMs).toBe(0);
    expect(figures.meanAcceptedPerSecond).toBeNaN();
    expect(figures.gapP99Ms).toBeNaN();
    expect(arrivalFigures([]).maxCallsInAnySecond).toBe(0);
  });
});

describe('acceptedRateBetween', () => {
  it('counts the accepted arrivals of a half-open window, per second', () => {
    const arrivals = [sent(999, 'a'), sent(1000, 'b'), throttled(1500, 'c'), sent(2999, 'c'), sent(3000, 'd')];
    expect(acceptedRateBetween(arrivals, 1000, 3000)).toEqual({ count: 2, perSecond: 1 });
    expect(acceptedRateBetween(arrivals, 3000, 3000).perSecond).toBeNaN();
  });
});

describe('acceptedPerBucket', () => {
  it('counts the accepted arrivals per bucket from the first one, empty buckets included', () => {
    expect(acceptedPerBucket([sent(1000, 'a'), throttled(1100, 'b'), sent(1999, 'b'), sent(3500, 'c')], 1000)).toEqual([2, 0, 1]);
    expect(acceptedPerBucket([], 1000)).toEqual([]);
  });
});
