import { businessScope } from '@cmsg/dal';
import { InMemorySchedulingWorld } from '../testing/in-memory-scheduling-ports';
import { addBusiness } from '../testing/scheduling-builders';
import { MAX_TESTER_CLOCK_ADVANCE_SECONDS, advanceTesterClock } from './tester-clock.usecase';

const DAY_SECONDS = 24 * 60 * 60;

describe('advanceTesterClock', () => {
  let world: InMemorySchedulingWorld;
  const offsetOf = (id: string) => world.businesses.find((business) => business._id === id)!.tester_clock_offset_ms;

  beforeEach(() => {
    world = new InMemorySchedulingWorld('2026-03-02T12:00:00Z');
    addBusiness(world, 'b1', { tester_clock_offset_ms: 60_000 });
    addBusiness(world, 'b2');
  });

  it("adds to the business's offset and answers the virtual now, the real now plus the whole offset", async () => {
    await expect(advanceTesterClock(businessScope('b1'), 3600, world.ports())).resolves.toEqual({ tester_virtual_now: '2026-03-02T13:01:00.000Z' });
    world.advance(1000);
    await expect(advanceTesterClock(businessScope('b1'), 2 * DAY_SECONDS, world.ports())).resolves.toEqual({ tester_virtual_now: '2026-03-04T13:01:01.000Z' });
    expect(offsetOf('b1')).toBe(60_000 + 3600_000 + 2 * DAY_SECONDS * 1000);
    expect(offsetOf('b2')).toBe(0);
  });

  it('accepts 1 second and 366 days, the bounds', async () => {
    await advanceTesterClock(businessScope('b2'), 1, world.ports());
    await advanceTesterClock(businessScope('b2'), MAX_TESTER_CLOCK_ADVANCE_SECONDS, world.ports());
    expect(MAX_TESTER_CLOCK_ADVANCE_SECONDS).toBe(366 * DAY_SECONDS);
    expect(offsetOf('b2')).toBe((1 + 366 * DAY_SECONDS) * 1000);
  });

  it.each([0, -5, 1.5, MAX_TESTER_CLOCK_ADVANCE_SECONDS + 1, Number.NaN])('answers INVALID_REQUEST for %s seconds, the clock unmoved', async (seconds) => {
    await expect(advanceTesterClock(businessScope('b1'), seconds, world.ports())).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: `Invalid request: advance_seconds: an integer from 1 to ${366 * DAY_SECONDS}.`,
    });
    expect(offsetOf('b1')).toBe(60_000);
  });

  it('answers FETCH_FAILED when the business no longer exists', async () => {
    await expect(advanceTesterClock(businessScope('gone'), 60, world.ports())).rejects.toMatchObject({
      code: 'FETCH_FAILED',
      message: 'The business of this caller no longer exists.',
    });
  });
});
