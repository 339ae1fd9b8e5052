import { EventEmitter } from 'node:events';
import { Metadata } from '@grpc/grpc-js';
import { type IncomingCall, requestContextOf } from './grpc-call-context';

class FakeCall extends EventEmitter implements IncomingCall {
  metadata = new Metadata();
  constructor(
    public cancelled = false,
    private readonly deadline: number = Number.POSITIVE_INFINITY,
  ) {
    super();
  }
  getDeadline() {
    return this.deadline;
  }
}

describe('requestContextOf', () => {
  it('takes the request id and caller from the metadata, and the deadline', () => {
    const call = new FakeCall(false, 1_700_000_000_000);
    call.metadata.set('x-request-id', 'req-1');
    call.metadata.set('x-cmsg-caller', 'gateway');
    const context = requestContextOf(call);
    expect(context).toMatchObject({ requestId: 'req-1', caller: 'gateway', deadline: 1_700_000_000_000 });
    expect(context.signal?.aborted).toBe(false);
  });

  it('aborts the signal with an AbortError when the call is cancelled, each call with its own signal', () => {
    const cancelledCall = new FakeCall();
    const otherCall = new FakeCall();
    const cancelled = requestContextOf(cancelledCall).signal!;
    const other = requestContextOf(otherCall).signal!;
    const aborts: unknown[] = [];
    cancelled.addEventListener('abort', () => aborts.push(cancelled.reason));

    cancelledCall.emit('cancelled');

    expect(cancelled.aborted).toBe(true);
    expect(aborts).toHaveLength(1);
    expect((cancelled.reason as DOMException).name).toBe('AbortError');
    expect(other.aborted).toBe(false);
  });

  it('starts aborted for a call cancelled before its handler ran', () => {
    const signal = requestContextOf(new FakeCall(true)).signal!;
    expect(signal.aborted).toBe(true);
    expect((signal.reason as DOMException).name).toBe('AbortError');
  });
});
