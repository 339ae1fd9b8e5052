import { randomUUID } from 'node:crypto';
import type { Deadline, Metadata } from '@grpc/grpc-js';
import { trace } from '@opentelemetry/api';
import { REQUEST_ID_HEADER, type RequestContext } from '../request-context';
import { CALLER_METADATA } from './grpc-caller-authentication';

/** The part of a grpc-js server call the request context is built from. */
export interface IncomingCall {
  metadata: Metadata;
  getDeadline(): Deadline;
  on(event: 'cancelled', listener: () => void): unknown;
  cancelled: boolean;
}

/**
 * The reason every call's signal aborts with, made once: grpc-js emits 'cancelled' for a call its
 * caller cancelled and also once any call has ended (after its status was sent), so every call
 * aborts its signal, and `abort()` without a reason builds a DOMException with a stack each time
 * (about 1 % of the conversations service's CPU on the status read). Same name as that one.
 */
const CALL_CANCELLED_OR_ENDED = new DOMException('The gRPC call was cancelled or has ended.', 'AbortError');

/**
 * The request context of an incoming call: its request id and caller (also put on the call's
 * span), its deadline, and a signal aborted when the call is cancelled or its deadline passes (and
 * when it has ended: nothing of the call's work is left then).
 */
export function requestContextOf(call: IncomingCall): RequestContext {
  const requestId = firstString(call.metadata, REQUEST_ID_HEADER) ?? randomUUID();
  const caller = firstString(call.metadata, CALLER_METADATA);
  const cancellation = new AbortController();
  if (call.cancelled) cancellation.abort(CALL_CANCELLED_OR_ENDED);
  else call.on('cancelled', () => cancellation.abort(CALL_CANCELLED_OR_ENDED));
  trace.getActiveSpan()?.setAttributes({ 'cmsg.request_id': requestId, ...(caller ? { 'cmsg.caller': caller } : {}) });
  const deadline = epochMs(call.getDeadline());
  return { requestId, ...(caller ? { caller } : {}), ...(deadline !== undefined ? { deadline } : {}), signal: cancellation.signal };
}

function firstString(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return typeof value === 'string' && value ? value : undefined;
}

function epochMs(deadline: Deadline): number | undefined {
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(ms) ? ms : undefined;
}
