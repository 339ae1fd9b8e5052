/** A clock a unit spec moves by hand, for use cases that take their clock as a port. */
export interface ManualClock {
  at: Date;
  now(): Date;
  advance(ms: number): void;
}

export function manualClock(iso = '2026-03-02T12:00:00Z'): ManualClock {
  const clock: ManualClock = {
    at: new Date(iso),
    now: () => new Date(clock.at),
    advance: (ms) => {
      clock.at = new Date(clock.at.getTime() + ms);
    },
  };
  return clock;
}
