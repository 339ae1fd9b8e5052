import { storedCollection, eventually } from '@cmsg/testing';
import type { ActionsBusiness } from '../action-groups/action-group-fixtures';

type StoredBroadcast = Record<string, any>;

/** Read from the database, so waiting does not spend the token's 60 requests a minute. */
export function storedBroadcast(uuid: string): Promise<StoredBroadcast | null> {
  return storedCollection('broadcasts').findOne({ _id: uuid });
}

export function waitForBroadcast(uuid: string, accept: (broadcast: StoredBroadcast) => boolean, timeoutMs = 45_000): Promise<StoredBroadcast> {
  return eventually(() => storedBroadcast(uuid), (broadcast) => broadcast !== null && accept(broadcast), timeoutMs) as Promise<StoredBroadcast>;
}

export function storedRecipients(broadcastUuid: string): Promise<Record<string, any>[]> {
  return storedCollection('broadcast_recipients').find({ broadcast_id: broadcastUuid }).sort({ seq: 1 }).toArray();
}

/** The body of POST /broadcasts for the fixture business's approved utility template. */
export function broadcastBody(business: ActionsBusiness, body: Record<string, unknown>): Record<string, unknown> {
  return {
    name: 'Order updates',
    channel: business.seed.channels![0]!.public_key,
    template: { name: 'order_update', language: 'es_MX' },
    variables: [{ index: 1, value: '{{contact.first_name|there}}' }],
    ...body,
  };
}
