import { type FaultStack, actionGroupLoad, reportFault, settleGroups, startFaultStack } from './fault-stack';

/**
 * Kafka stopped and started again while action groups run (a broker of the stack's own):
 * submissions meanwhile are accepted or refused with 503, and every accepted group is done exactly
 * once once the broker is back, with no app restarted.
 */
describe('Kafka restarted while action groups run', () => {
  let fault: FaultStack;

  beforeAll(async () => {
    fault = await startFaultStack({ ownKafka: true, conversations: 12, tokens: 6 });
  }, 240_000);

  afterAll(async () => {
    await fault?.stop();
  });

  it('does every accepted action group exactly once', async () => {
    const groups = await actionGroupLoad(fault, { perSecond: 3, seconds: 20 }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await fault.kafka!.restart();
    });
    const outcome = await settleGroups(fault, groups);
    reportFault('Kafka restarted', { submitted: groups.length, ...outcome });
    expect(groups.filter((group) => group.status >= 500 && group.status !== 503 && group.status !== 504)).toEqual([]);
    expect({ lost: outcome.lost, twice: outcome.twice }).toEqual({ lost: 0, twice: 0 });
    expect(outcome.completed).toBe(outcome.accepted);
    expect(outcome.accepted).toBeGreaterThan(0);
  });
});
