import { minutesToPoll } from './due-minutes';

const at = (iso: string) => Date.parse(iso);

describe('minutesToPoll', () => {
  it('polls the previous and the current minute on a regular pass', () => {
    expect(minutesToPoll([], at('2027-01-02T15:30:20.000Z'), at('2027-01-02T15:30:21.000Z'))).toEqual(['2027-01-02T15:29', '2027-01-02T15:30']);
  });

  it('polls every minute since a long pass, and the backlog', () => {
    expect(minutesToPoll(['2027-01-02T15:20'], at('2027-01-02T15:30:50.000Z'), at('2027-01-02T15:33:10.000Z'))).toEqual([
      '2027-01-02T15:20',
      '2027-01-02T15:30',
      '2027-01-02T15:31',
      '2027-01-02T15:32',
      '2027-01-02T15:33',
    ]);
  });

  it('polls at most ten minutes back after a stop (the catch-up finds older ones)', () => {
    const minutes = minutesToPoll([], Number.NEGATIVE_INFINITY, at('2027-01-02T15:33:10.000Z'));
    expect(minutes).toHaveLength(11);
    expect(minutes[0]).toBe('2027-01-02T15:23');
    expect(minutes.at(-1)).toBe('2027-01-02T15:33');
  });
});
