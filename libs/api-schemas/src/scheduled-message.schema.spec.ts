import { ScheduleAtSchema } from './scheduled-message.schema';

describe('ScheduleAtSchema', () => {
  it.each(['0001-01-01', '0099-12-31', '2024-02-29', '9999-12-31'])('takes the calendar date %s (years below 100 included)', (date) => {
    expect(ScheduleAtSchema.safeParse({ date, time: '00:00' }).success).toBe(true);
  });

  it.each(['2023-02-29', '2026-13-01', '2026-04-31', '0000-00-00'])('refuses %s, which is not a calendar date', (date) => {
    expect(ScheduleAtSchema.safeParse({ date, time: '00:00' }).success).toBe(false);
  });
});
