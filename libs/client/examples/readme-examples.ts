/*
 * The code of the client's README, region by region: README.md shows each `#region` verbatim
 * (readme-examples.spec.ts keeps them equal) and the integration suite runs each function against
 * the real stack (apps/gateway-e2e/src/client/readme-examples.int-spec.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { type CmsgClient, CmsgApiError, createCmsgClient, unwrap, verifyWebhook } from '../src';

// #region connect
export function connect(baseUrl: string, slug: string, token: string): CmsgClient {
  return createCmsgClient({ baseUrl, slug, token });
}
// #endregion

// #region list-every-conversation
export async function everyConversationUuid(cmsg: CmsgClient): Promise<string[]> {
  const uuids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = unwrap(await cmsg.GET('/conversations', { params: { query: { limit: 100, cursor } } }));
    uuids.push(...page.items.map((conversation) => conversation.uuid));
    cursor = page.has_more ? page.next_cursor : undefined;
  } while (cursor);
  return uuids;
}
// #endregion

// #region note-when-window-closed
export async function noteWhenWindowClosed(cmsg: CmsgClient, phone: string): Promise<string | null> {
  const status = unwrap(await cmsg.POST('/conversation/status', { body: { conversation: { phone } } }));
  if (status.window.status === 'open') return null;
  const { note } = unwrap(
    await cmsg.POST('/conversation/notes', {
      body: { conversation: { uuid: status.conversation.uuid }, note: 'Window closed: follow up with a template.' },
    }),
  );
  return note.uuid;
}
// #endregion

// #region typed-errors
export async function inboxStatusOrNull(cmsg: CmsgClient, uuid: string): Promise<'pending' | 'resolved' | null> {
  const { data, error, response } = await cmsg.POST('/conversation/status', { body: { conversation: { uuid } } });
  if (error?.code === 'CONVERSATION_NOT_FOUND') return null;
  if (error) throw new Error(`${response.status} ${error.code}: ${error.message}`);
  return data.inbox_status;
}

export async function resolveQuietly(cmsg: CmsgClient, uuid: string): Promise<string> {
  try {
    const done = unwrap(await cmsg.POST('/conversation/resolve', { body: { conversation: { uuid } } }));
    return done.inbox_status;
  } catch (error) {
    if (error instanceof CmsgApiError) return `${error.status} ${error.code}`;
    throw error;
  }
}
// #endregion

// #region verify-webhook
export function receiveDelivery(rawBody: Buffer, headers: IncomingHttpHeaders, secret: string): string {
  // Throws WebhookVerificationError for a bad signature, a stale timestamp or a forged id.
  const event = verifyWebhook(rawBody, headers, secret);
  switch (event.type) {
    case 'message.received':
      return `customer wrote in ${event.conversation.uuid}: ${event.data.body ?? event.data.content_type}`;
    case 'conversation.inbox_status_changed':
      return `conversation ${event.conversation.uuid} is now ${event.data.to}`;
    default:
      return `${event.type} #${event.sequence}`;
  }
}
// #endregion
