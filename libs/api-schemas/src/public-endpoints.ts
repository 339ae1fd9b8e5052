import { listChannelsEndpoint } from './channels.schema';
import { listContactsEndpoint, listTesterContactsEndpoint } from './contact-list.schema';
import { listConversationsEndpoint } from './conversation-list.schema';
import { conversationStatusEndpoint } from './conversation-status.schema';
import { markPendingEndpoint, markResolvedEndpoint } from './inbox-status.schema';
import { addNoteEndpoint } from './notes.schema';
import type { PublicEndpoint } from './public-endpoint';

/** Every public business endpoint; the gateway routes exactly these and the OpenAPI document lists them. */
export const PUBLIC_ENDPOINTS: readonly PublicEndpoint[] = [
  conversationStatusEndpoint,
  addNoteEndpoint,
  markPendingEndpoint,
  markResolvedEndpoint,
  listConversationsEndpoint,
  listContactsEndpoint,
  listTesterContactsEndpoint,
  listChannelsEndpoint,
];
