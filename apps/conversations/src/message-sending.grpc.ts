import { CatalogError } from '@cmsg/errors';
import type { AsyncUnaryImplementation } from '@cmsg/platform';
import type { ConversationActionsServiceServer } from '@cmsg/proto';

export type MessageSendingHandlers = Pick<AsyncUnaryImplementation<ConversationActionsServiceServer>, 'sendMessage'>;

/** Transport adapter for sends (text, quick reply, template, file). */
export function messageSendingHandlers(): MessageSendingHandlers {
  return {
    sendMessage: async () => {
      throw new CatalogError('UNKNOWN_ERROR', 'Not available in this version.');
    },
  };
}
