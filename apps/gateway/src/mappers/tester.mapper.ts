import type { z } from 'zod';
import type { AdvanceTesterClockResponseSchema, CreateTesterContactResponseSchema, TesterInboundResponseSchema, TesterMessagesResponseSchema } from '@cmsg/api-schemas';
import type { TesterClock, TesterContact, TesterInbound, TesterMessages } from '@cmsg/proto';
import { toContact } from './contact-list.mapper';
import { orNull, requiredField } from './upstream-fields';

export function toCreateTesterContactResponse(created: TesterContact): z.input<typeof CreateTesterContactResponseSchema> {
  return { contact: toContact(requiredField(created.contact, 'contact')), conversation: { uuid: created.conversation_uuid } };
}

export function toTesterInboundResponse(inbound: TesterInbound): z.input<typeof TesterInboundResponseSchema> {
  return {
    conversation: { uuid: inbound.conversation_uuid },
    message: { uuid: inbound.message_uuid, created_at: inbound.created_at },
    cancelled_schedules: inbound.cancelled_schedules,
    ai_run: inbound.ai_run_group_uuid ? { action_group: { uuid: inbound.ai_run_group_uuid } } : null,
  };
}

export function toTesterClockResponse(clock: TesterClock): z.input<typeof AdvanceTesterClockResponseSchema> {
  return { tester_virtual_now: clock.tester_virtual_now };
}

export function toTesterMessagesResponse(messages: TesterMessages): z.input<typeof TesterMessagesResponseSchema> {
  return {
    items: messages.items.map((message) => ({
      uuid: message.uuid,
      body: message.body,
      content_type: message.content_type,
      status: message.status,
      author: message.author ? { type: message.author.type, uuid: orNull(message.author.uuid) } : null,
      created_at: message.created_at,
    })),
  };
}
