import { CatalogError } from '@cmsg/errors';
import { type ScheduledMessageRepository, businessScope } from '@cmsg/dal';
import type { OutboxRecorder } from '@cmsg/events';
import type { AsyncUnaryImplementation } from '@cmsg/platform';
import type { Caller, ConversationReference, SchedulerServiceServer } from '@cmsg/proto';
import {
  type Clock,
  type ConfirmedFileLookup,
  type ConversationCommandPublisher,
  type ConversationContextPort,
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

export interface SchedulerHandlerDependencies {
  repository: ScheduledMessageRepository;
  conversations: ConversationContextPort;
  publisher: ConversationCommandPublisher;
  files: ConfirmedFileLookup;
  events: OutboxRecorder;
  clock: Clock;
  /** Asks the firer for a pass now (the tester clock moved). */
  wakeFirer: () => void;
}

/** Transport adapter: proto request -> use case -> proto response. No rules live here. */
export function schedulerHandlers(dependencies: SchedulerHandlerDependencies): AsyncUnaryImplementation<SchedulerServiceServer> {
  const { repository, conversations, publisher, files, events, clock } = dependencies;
  return {
    createScheduledMessage: (request) => createScheduledMessage(createScheduledMessageCommand(callerOf(request.caller), createScheduleBodyOf(request)), { conversations, repository, files, events, clock }),
    getScheduledMessage: (request) => getScheduledMessage(repository, scopeOf(request.caller), request.uuid),
    cancelScheduledMessage: (request) => {
      const caller = callerOf(request.caller);
      return cancelScheduledMessage(repository, events, clock, businessScope(caller.business_id), request.uuid, { type: 'api_token', uuid: caller.token_uuid || null });
    },
    createTesterContact: (request) =>
      createTesterContact(
        scopeOf(request.caller),
        events,
        { first_name: request.first_name, last_name: request.last_name, phone: request.phone, chat_username: request.chat_username, channel: request.channel },
        clock.now(),
      ),
    recordTesterInbound: (request) => {
      const caller = callerOf(request.caller);
      return recordTesterInbound(businessScope(caller.business_id), caller, referenceOf(request.conversation), request.text, { conversations, repository, publisher, events, clock });
    },
    advanceTesterClock: async (request) => {
      const answer = await advanceTesterClock(scopeOf(request.caller), request.advance_seconds, clock.now());
      dependencies.wakeFirer();
      return answer;
    },
    listTesterMessages: (request) => listTesterMessages(scopeOf(request.caller), request.conversation_uuid, request.limit > 0 ? Math.min(request.limit, 100) : 50),
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
