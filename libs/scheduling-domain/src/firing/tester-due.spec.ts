import { dueTesterSchedules } from './tester-due';

describe('dueTesterSchedules', () => {
  const realNow = new Date('2031-01-01T10:00:00Z');
  const at = (iso: string) => new Date(iso);

  it("compares each schedule with its business's virtual now, earliest first", () => {
    const pending = [
      { _id: 'b-later', business_id: 'b', schedule_at: at('2031-01-03T10:00:00Z') },
      { _id: 'a-due', business_id: 'a', schedule_at: at('2031-01-01T10:30:00Z') },
      { _id: 'b-due', business_id: 'b', schedule_at: at('2031-01-02T09:00:00Z') },
      { _id: 'a-later', business_id: 'a', schedule_at: at('2031-01-01T11:30:00Z') },
    ];
    const offsets = new Map([
      ['a', 3_600_000],
      ['b', 86_400_000],
    ]);
    expect(dueTesterSchedules(pending, offsets, realNow).map((schedule) => schedule._id)).toEqual(['a-due', 'b-due']);
  });

  it('is due exactly at its time, and a business without an offset runs on real time', () => {
    const pending = [
      { _id: 'exact', business_id: 'a', schedule_at: at('2031-01-01T11:00:00Z') },
      { _id: 'unknown-business', business_id: 'gone', schedule_at: at('2031-01-01T10:00:01Z') },
    ];
    expect(dueTesterSchedules(pending, new Map([['a', 3_600_000]]), realNow).map((schedule) => schedule._id)).toEqual(['exact']);
  });
});
