import type { ChannelCredentials, MessageContent } from '@cmsg/chat-platform';
import { DEFAULT_MESSAGES_PER_SECOND } from '@cmsg/api-schemas';
import { CatalogError, isCatalogError } from '@cmsg/errors';
import type { BusinessScope, OutboxAuthor } from '@cmsg/dal';
import { type OutboxRecorder, SYSTEM_AUTHOR } from '@cmsg/events';
import type { SendMessageResponse, SentMessage } from '@cmsg/proto';
import { conversationClockOffsetMs } from '../conversation/business-clock';
import { conversationNow, messagingWindow } from '../conversation/messaging-window';
import { resolveConversationReference, type StoredContact } from '../conversation/conversation-resolver';
import { SendAlreadyClaimed } from '@cmsg/send-engine';
import type { MessageSender, SendPacing } from './message-sender';

import { operationMessageId } from '../conversation/operation-ids';
import type { OutboundFiles } from './outbound-file';
import { type NewOutboundMessage, OutboundMessageStore, type StoredOutboundMessage, storedFailure } from './outbound-message-store';
import { type SendContext, planParts } from './outbound-parts';
import type { SendMessageCommand } from './send-message.command';
import type { SendLease } from './send-lease';
import type { ConsentRecorder } from '../contacts/record-consent.usecase';
import type { SendMessagePorts } from './send-message-ports';

export interface SendMessageDependencies extends SendMessagePorts {
  sender: MessageSender;
  files: OutboundFiles;
  /** Records the message.sent / message.status_updated entries of the sends. */
  outbox: OutboxRecorder;
  /** When a send found `sending` (a repeat of an operation) was cut off by a crash: see OutboundMessageStore.settle. */
  lease: SendLease;
  realNow?: () => number;
  /** Records the contact's marketing opt-out the provider reported (131050, CONTRACT 10.2). */
  recordConsent?: ConsentRecorder;
}

/**
 * SendMessage: text, file, quick reply (one text message per action, in order), template, or the
 * deprecated quick-reply-or-template, for the individual endpoints and the action groups alike.
 *
 * Exactly once per operation_id: a repeat answers what the first attempt stored, without resolving
 * or validating again (the window may have closed since) and without calling the provider again.
 * Every rule is checked before the first part goes out, so a send is refused whole or attempted.
 */
export async function sendMessage(scope: BusinessScope, command: SendMessageCommand, dependencies: SendMessageDependencies): Promise<SendMessageResponse> {
  const realNow = dependencies.realNow ?? Date.now;
  const store = new OutboundMessageStore(scope, dependencies, realNow);
  const partId = (part: number) => operationMessageId(scope.businessId, command.operationId, part);

  const replayed = await replayOperation(store, partId);
  if (replayed) return replayed;

  const { conversation, contact } = await resolveConversationReference(dependencies.lookup, scope, command.conversation);
  const isTester = conversation.is_tester || contact.is_tester;
  const testerClockOffsetMs = await conversationClockOffsetMs(dependencies.businesses, scope, isTester);
  const now = () => conversationNow(isTester, testerClockOffsetMs, realNow());
  const windowOpen = messagingWindow(conversation.last_inbound_at, now()).status === 'open';
  const context: SendContext = { scope, files: dependencies.files, sources: dependencies, conversation, contact, isTester, windowOpen };

  const parts = await planParts(context, command);
  const channel = isTester ? undefined : await channelOf(dependencies.channels, scope, conversation.channel_id);
  const author = await dependencies.authors(scope, command.author);

  const delivered: StoredOutboundMessage[] = [];
  let previousCreatedAt = 0;
  for (const [index, part] of parts.entries()) {
    // Strictly increasing times keep the parts of a quick reply in order on the timeline.
    const createdAt = new Date(Math.max(now(), previousCreatedAt + 1));
    previousCreatedAt = createdAt.getTime();
    const claim: NewOutboundMessage = {
      id: partId(index),
      conversationId: conversation._id,
      operationId: command.operationId,
      part: index,
      parts: parts.length,
      author: command.author,
      body: part.body,
      contentType: part.contentType,
      ...(part.transcription !== undefined ? { transcription: part.transcription } : {}),
      ...(part.file ? { file: part.file } : {}),
      createdAt,
      status: channel ? 'sending' : 'simulated',
    };
    delivered.push(
      await deliverPart(store, claim, author, channel ? { sender: dependencies.sender, channel: channel.credentials, contact, content: part.content, pacing: pacingOf(scope, channel, contact, part.content, command) } : undefined).catch(async (error: unknown) => {
        if (isCatalogError(error) && error.code === 'CONTACT_OPTED_OUT' && error.providerCode === PROVIDER_OPTED_OUT && dependencies.recordConsent) {
          await dependencies.recordConsent(scope, { contactId: contact._id, conversationId: conversation._id, consent: { marketing: 'opted_out' }, source: 'provider', author: SYSTEM_AUTHOR });
        }
        throw error;
      }),
    );
  }
  return responseOf(conversation._id, delivered);
}

/** The Cloud API's "user stopped marketing messages" (131050). */
const PROVIDER_OPTED_OUT = '131050';

interface ProviderCall {
  sender: MessageSender;
  channel: ChannelCredentials;
  contact: StoredContact;
  content: MessageContent;
  pacing: SendPacing;
}

/**
 * Claims one part, sends it (unless simulated), settles it and shows it on the conversation. A real
 * send is claimed by the sender after its pair interval and turn, just before its rate slot and the
 * provider call, so that a crash while it waits leaves nothing `sending` (see ClaimBeforeCall).
 */
async function deliverPart(store: OutboundMessageStore, claim: NewOutboundMessage, author: OutboxAuthor, provider: ProviderCall | undefined): Promise<StoredOutboundMessage> {
  if (!provider) {
    const inserted = await store.insert(claim, author);
    const stored = inserted ? await store.find(claim.id) : await repeatOf(store, claim);
    if (!stored) throw new CatalogError('UPDATE_FAILED', 'The message could not be recorded; retry.');
    // A repeat's outcome was shown by finalOutcome.
    if (inserted) await store.recordOnConversation(stored);
    return stored;
  }
  // A claim another attempt held and that was then forgotten (cut off before its call) is taken again.
  for (let attempt = 1; ; attempt += 1) {
    const sent = await callProvider(store, provider, claim, author);
    if (sent) return sent;
    if (attempt === CLAIM_ATTEMPTS) throw new CatalogError('SERVICE_UNAVAILABLE', 'Other attempts of this send kept taking and giving up its claim; nothing was sent by this one, retry.');
  }
}

const CLAIM_ATTEMPTS = 3;

/** An earlier attempt (or a concurrent repeat) already owns this part: its outcome, or null when that attempt's claim was forgotten (never sent). */
async function repeatOf(store: OutboundMessageStore, claim: NewOutboundMessage): Promise<StoredOutboundMessage | null> {
  const existing = await store.find(claim.id);
  return existing ? finalOutcome(store, existing) : null;
}

/** The stored result of an earlier attempt of the same operation, when all its parts exist. */
async function replayOperation(store: OutboundMessageStore, partId: (part: number) => string): Promise<SendMessageResponse | undefined> {
  const first = await store.find(partId(0));
  if (!first) return undefined;
  const settled: StoredOutboundMessage[] = [];
  for (let part = 0; part < (first.operation_parts ?? 1); part += 1) {
    const message = part === 0 ? first : await store.find(partId(part));
    // A crash between two parts, or a part cut off before its call: the normal path sends what is
    // missing and reuses the rest.
    const outcome = message && (await finalOutcome(store, message));
    if (!outcome) return undefined;
    settled.push(outcome);
  }
  return responseOf(first.conversation_id, settled);
}

/** A stored part's final state: delivered parts are returned, a failed one is raised again; null when it was forgotten (never sent). */
async function finalOutcome(store: OutboundMessageStore, message: StoredOutboundMessage): Promise<StoredOutboundMessage | null> {
  const settled = await store.settle(message);
  if (!settled) return null;
  if (settled.status === 'failed') throw storedFailure(settled);
  // Heals a crash between settling the message and updating its conversation.
  await store.recordOnConversation(settled);
  return settled;
}

/**
 * Sends the part, claimed just before its rate slot and the call, and answers it as stored with its
 * outcome; when another attempt holds the claim, that attempt's outcome, or null when that claim was
 * forgotten (cut off before its call): the part is still to be sent.
 */
async function callProvider(store: OutboundMessageStore, { sender, channel, contact, content, pacing }: ProviderCall, claim: NewOutboundMessage, author: OutboxAuthor): Promise<StoredOutboundMessage | null> {
  let claimed = false;
  let providerMessageId: string;
  const claimBeforeCall = { take: async (callFence?: string) => (claimed = await store.insert(callFence ? { ...claim, callFence } : claim, author)) };
  try {
    // The client picks the phone, or the platform user id where allowed (BSUID_SEND_DISABLED otherwise).
    ({ provider_message_id: providerMessageId } = await sender.sendMessage(channel, { to: { phone: contact.phone, user_id: contact.chat_user_id }, content }, pacing, claimBeforeCall));
  } catch (error) {
    if (error instanceof SendAlreadyClaimed) return repeatOf(store, claim);
    // Refused before the claim (the messaging limit, no slot in time): nothing stored, nothing sent.
    if (!claimed) throw error;
    if (isCatalogError(error) && !mayHaveReachedProvider(error)) {
      // Refused before any network call: nothing reached the provider, nothing to remember.
      await store.discard(claim.id);
      throw error;
    }
    const failure = isCatalogError(error) ? error : new CatalogError('SEND_FAILED', 'Sending to the chat channel failed unexpectedly.', { providerCode: null, cause: error });
    await store.markFailed(claim, failure, author);
    throw failure;
  }
  // A sent message is shown on the conversation by markSent (the update that sequences its event).
  const sent = await store.markSent(claim, providerMessageId, author);
  if (!sent) throw new CatalogError('UPDATE_FAILED', 'The message could not be recorded; retry.');
  return sent;
}

/**
 * A provider outcome (WINDOW_CLOSED, CONTACT_OPTED_OUT... with its providerCode) or SEND_FAILED: the
 * call left the process, so the message is kept failed with its codes. CONTACT_OPTED_OUT with
 * providerCode "131050" is the provider's word that the contact stopped marketing messages.
 */
function mayHaveReachedProvider(error: CatalogError): boolean {
  return error.code === 'SEND_FAILED' || error.providerCode !== undefined;
}

interface SendingChannel {
  id: string;
  credentials: ChannelCredentials;
  maxMessagesPerSecond: number;
  messagingLimit: number | null;
}

async function channelOf(channels: SendMessagePorts['channels'], scope: BusinessScope, channelId: string): Promise<SendingChannel> {
  const channel = await channels.findById(scope, channelId);
  if (!channel?.phone_number_id || !channel.access_token) {
    throw new CatalogError('CHANNEL_NOT_CONFIGURED', 'The conversation has no chat channel with a Cloud API phone number id and access token.');
  }
  return {
    id: channelId,
    credentials: { phone_number_id: channel.phone_number_id, access_token: channel.access_token },
    maxMessagesPerSecond: channel.max_messages_per_second ?? DEFAULT_MESSAGES_PER_SECOND,
    messagingLimit: channel.messaging_limit ?? null,
  };
}

function pacingOf(scope: BusinessScope, channel: SendingChannel, contact: StoredContact, content: MessageContent, command: SendMessageCommand): SendPacing {
  return {
    businessId: scope.businessId,
    channelId: channel.id,
    maxMessagesPerSecond: channel.maxMessagesPerSecond,
    messagingLimit: channel.messagingLimit,
    contactId: contact._id,
    isTemplate: content.type === 'template',
    ...(command.broadcast ? { broadcast: command.broadcast } : {}),
  };
}

function responseOf(conversationId: string, messages: StoredOutboundMessage[]): SendMessageResponse {
  const sent = messages.map(toSentMessage);
  return { conversation: { uuid: conversationId }, message: sent[0], messages: sent };
}

function toSentMessage(message: StoredOutboundMessage): SentMessage {
  return { uuid: message._id, status: message.status, created_at: message.created_at.toISOString() };
}
