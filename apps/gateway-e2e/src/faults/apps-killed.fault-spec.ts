import { type FaultStack, actionGroupLoad, reportFault, settleGroups, startFaultStack } from './fault-stack';

/**
 * Each app killed with SIGKILL under load and started again (issue 14): what was accepted (202) is
 * done exactly once, its note stored once and its text sent once; what was refused did not run
 * twice either.
 */
describe('every app killed with SIGKILL under load', () => {
  let fault: FaultStack;

  beforeAll(async () => {
    fault = await startFaultStack({ conversations: 12, tokens: 6 });
  }, 240_000);

  afterAll(async () => {
    await fault?.stop();
  });

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  const killedAt: Record<string, number[]> = {};

  async function crash(name: string, downMs: number): Promise<void> {
    const app = fault.stack.process(name);
    (killedAt[name] ??= []).push(Date.now());
    await app.stop('SIGKILL');
    await pause(downMs);
    app.start();
  }

  it('does every accepted action group exactly once', async () => {
    const groups = await actionGroupLoad(fault, { perSecond: 4, seconds: 20 }, async () => {
      await pause(2_000);
      await crash('conversations', 2_000);
      await pause(3_000);
      await crash('actions-runner', 2_000);
      await pause(3_000);
      await crash('scheduler', 1_000);
      await pause(2_000);
      await crash('gateway-1', 1_000);
    });
    // Recovered: once every app is back, a group is accepted again.
    const recoveredBy = Date.now() + 90_000;
    // A gateway still restarting refuses the connection: that is "not back yet" (status 0), as the load counts it.
    const submitAfter = () =>
      fault.business.api.post('/conversation/actions', { conversation: { uuid: fault.conversations[0] }, actions: [{ type: 'mark_pending' }] }).catch(() => ({ status: 0 }));
    let after = await submitAfter();
    while (after.status !== 202 && Date.now() < recoveredBy) {
      await pause(1_000);
      after = await submitAfter();
    }
    expect(after.status).toBe(202);
    // A text whose provider call was in flight when the conversations service died ends unknown, never sent twice (cutOff).
    const outcome = await settleGroups(fault, groups, { conversationsKilledAt: killedAt['conversations'] });
    const refusals = Object.entries(groups.filter((group) => group.status !== 202).reduce<Record<string, number>>((counts, group) => ({ ...counts, [group.status]: (counts[group.status] ?? 0) + 1 }), {}));
    reportFault('apps killed (conversations, actions-runner, scheduler, gateway)', { submitted: groups.length, ...outcome, ...Object.fromEntries(refusals.map(([status, count]) => [`refused_${status === '0' ? 'no_gateway' : status}`, count])) });
    // Refusals are 503/504 SERVICE_UNAVAILABLE, or no answer while the only gateway was down.
    expect(groups.filter((group) => group.status !== 202 && group.status !== 503 && group.status !== 504 && group.status !== 0)).toEqual([]);
    expect(outcome.accepted).toBeGreaterThan(0);
    expect({ lost: outcome.lost, twice: outcome.twice }).toEqual({ lost: 0, twice: 0 });
    // At most the sends that one kill can catch between their rate slot and the provider: one per conversation.
    expect(outcome.cutOff).toBeLessThanOrEqual(fault.conversations.length);
    expect(outcome.completed + outcome.cutOff).toBe(outcome.accepted);
  });
});
