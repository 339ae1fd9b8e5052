import type { MessageEntity } from '@cmsg/dal';

/** When a message found `sending` counts as cut off by a crash, its outcome unknown (OutboundMessageStore.settle). */
export interface SendLease {
  /** A send still `sending` this long after it started was cut off, whatever else is known (sendLeaseMs). */
  ms: number;
  /** The process this runs in: its sends are in flight while it runs. */
  processId: string;
  /** False once the process that started a send is known to have stopped; true while it runs or when that is unknown. */
  isRunning(processId: string): Promise<boolean>;
  /**
   * For a send found cut off: takes the call fence its claim recorded down (SendCallFence). True
   * when the fence still stood, so the send never reached its provider call and now never will;
   * false when that is not known.
   */
  takeOverUncalled(send: { channelId: string; fenceId: string }): Promise<boolean>;
}

/**
 * A `sending` message was cut off when its lease is over, or earlier when the process that made
 * its provider call has stopped: a restarted process is another one, so nothing of that call can
 * still finish. A message stored before processes were recorded waits out its lease.
 */
export async function isCutOff(message: Pick<MessageEntity, 'status' | 'sending_started_at' | 'sending_process'>, lease: SendLease, now: number): Promise<boolean> {
  if (message.status !== 'sending') return false;
  if ((message.sending_started_at?.getTime() ?? 0) + lease.ms <= now) return true;
  const sender = message.sending_process;
  return sender != null && !(await lease.isRunning(sender));
}

/** A lease decided by its length alone (a process that knows of no other sender nor any call fence, as in the unit specs). */
export function leaseOnly(ms: number, processId = 'this-process'): SendLease {
  return { ms, processId, isRunning: async () => true, takeOverUncalled: async () => false };
}
