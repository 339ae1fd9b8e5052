import { CatalogError } from '@cmsg/errors';
import { businessScope } from '@cmsg/dal';
import type { AsyncUnaryImplementation } from '@cmsg/platform/grpc';
import type { Caller, ConversationReference, SchedulerServiceServer } from '@cmsg/proto';
import {
  type SchedulingPorts,
  advanceTesterClock,
  cancelScheduledMessage,
  createScheduledMessage,
  createScheduledMessageCommand,
  createTesterContact,
  getScheduledMessage,
  listTesterMessages,
  recordTesterInbound,
} from '@cmsg/scheduling-domain';
import { createScheduleBodyOf } from './create-schedule-body';

/**
 * Transport adapter: proto request -> use case -> proto response. No rules live here. `wakeFirer`
 * asks the firer for a pass now (the tester clock moved).
 */
export function schedulerHandlers(ports: SchedulingPorts, wakeFirer: () => void): AsyncUnaryImplementation<SchedulerServiceServer> {
  return {
    createScheduledMessage: (request) => createScheduledMessage(createScheduledMessageCommand(callerOf(request.caller), createScheduleBodyOf(request)), ports),
    getScheduledMessage: (request) => getScheduledMessage(scopeOf(request.caller), request.uuid, ports),
    cancelScheduledMessage: (request) => {
      const caller = callerOf(request.caller);
      return cancelScheduledMessage(businessScope(caller.business_id), request.uuid, { type: 'api_token', uuid: caller.token_uuid || null }, ports);
    },
    createTesterContact: (request) =>
      createTesterContact(
        scopeOf(request.caller),
        { first_name: request.first_name, last_name: request.last_name, phone: request.phone, chat_username: request.chat_username, channel: request.channel },
        ports,
      ),
    recordTesterInbound: (request) => {
      const caller = callerOf(request.caller);
      return recordTesterInbound(businessScope(caller.business_id), caller, referenceOf(request.conversation), request.text, ports);
    },
    advanceTesterClock: async (request) => {
      const answer = await advanceTesterClock(scopeOf(request.caller), request.advance_seconds, ports);
      wakeFirer();
      return answer;
    },
    listTesterMessages: (request) => listTesterMessages(scopeOf(request.caller), request.conversation_uuid, request.limit > 0 ? Math.min(request.limit, 100) : 50, ports),
  };
}

function callerOf(caller: Caller | undefined): Caller {
  if (!caller?.business_id) throw new CatalogError('INVALID_REQUEST', 'caller.business_id is required.');
  return caller;
}

function scopeOf(caller: Caller | undefined) {
  return businessScope(callerOf(caller).business_id);
}

function referenceOf(reference: ConversationReference | undefined): ConversationReference {
  if (!reference) throw new CatalogError('INVALID_REQUEST', 'Invalid request: conversation is required.');
  return reference;
}
