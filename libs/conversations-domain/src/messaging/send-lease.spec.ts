import { type SendLease, isCutOff } from './send-lease';

const NOW = Date.parse('2026-11-29T12:00:00Z');
const LEASE_MS = 60_000;

function leaseWith(running: string[]): SendLease {
  return { ms: LEASE_MS, processId: 'this-process', isRunning: async (processId) => processId === 'this-process' || running.includes(processId), takeOverUncalled: async () => false };
}

function sending(startedMsAgo: number, sendingProcess: string | null) {
  return { status: 'sending', sending_started_at: new Date(NOW - startedMsAgo), sending_process: sendingProcess };
}

describe('isCutOff', () => {
  it('counts a send of a running process in flight until its lease ends', async () => {
    await expect(isCutOff(sending(LEASE_MS - 1, 'other-process'), leaseWith(['other-process']), NOW)).resolves.toBe(false);
    await expect(isCutOff(sending(LEASE_MS, 'other-process'), leaseWith(['other-process']), NOW)).resolves.toBe(true);
  });

  it('counts a send of a stopped process cut off at once, inside its lease', async () => {
    await expect(isCutOff(sending(1_000, 'stopped-process'), leaseWith([]), NOW)).resolves.toBe(true);
  });

  it('never counts a send of this process cut off inside its lease', async () => {
    await expect(isCutOff(sending(1_000, 'this-process'), leaseWith([]), NOW)).resolves.toBe(false);
  });

  it('waits out the lease of a send stored without its process', async () => {
    await expect(isCutOff(sending(1_000, null), leaseWith([]), NOW)).resolves.toBe(false);
    await expect(isCutOff(sending(LEASE_MS + 1, null), leaseWith([]), NOW)).resolves.toBe(true);
  });

  it('never counts a settled message cut off', async () => {
    for (const status of ['sent', 'failed', 'simulated']) {
      await expect(isCutOff({ ...sending(LEASE_MS * 2, 'stopped-process'), status }, leaseWith([]), NOW)).resolves.toBe(false);
    }
  });
});
