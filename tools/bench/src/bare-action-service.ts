import { randomUUID } from 'node:crypto';
import { type ChangeTagsRequest, type ChangeTagsResponse, ConversationActionsServiceService } from '@cmsg/proto';
import * as grpc from '@grpc/grpc-js';
import { type Collection, MongoClient } from 'mongodb';
import { type BareServerConfig, untilStopped } from './bare-server-protocol';

/** The database the action floor writes to (a throwaway server of its own). */
export const ACTION_FLOOR_DATABASE = 'action_floor';

/** A document of the floor's collections: string ids, as every collection of the product has. */
export type FloorDocument = { _id: string } & Record<string, unknown>;

/** A conversation as the floor stores it: the fields its writes touch, and an outbox. */
export interface FloorConversation {
  _id: string;
  business_id: string;
  tag_ids: string[];
  sequence: number;
  outbox: { id: string }[];
  updated_at: Date;
}

/**
 * The least MongoDB work a tag action does on its conversation while keeping the data layer's rules
 * (docs/data-layer.md, docs/events.md): one atomic update that changes the tags, takes the event's
 * sequence and pushes its outbox entry; the timeline row and the event, each an insert; the entry
 * out of the outbox. Behind a bare grpc-js server (AssignTags / RemoveTags), through the bare driver:
 * no mongoose, reference resolution, noop detection, webhook fan-out, Kafka, call context, metrics,
 * logging or telemetry.
 */
export async function serveBareActionService(config: Extract<BareServerConfig, { role: 'action-service' }>): Promise<void> {
  const client = await MongoClient.connect(config.mongodbUri, { maxPoolSize: 20 });
  const database = client.db(ACTION_FLOOR_DATABASE);
  const conversations = database.collection<FloorConversation>('conversations');
  const timeline = database.collection<FloorDocument>('timeline_events');
  const events = database.collection<FloorDocument>('events');
  const change = (direction: 'assign' | 'remove') => async (request: ChangeTagsRequest): Promise<ChangeTagsResponse> => {
    const businessId = request.caller?.business_id ?? '';
    const conversationId = request.conversation?.uuid ?? '';
    const tag = request.tags[0]?.uuid ?? '';
    const now = new Date();
    const entry = { id: randomUUID(), type: 'conversation.tags_changed', data: { added: direction === 'assign' ? [tag] : [], removed: direction === 'remove' ? [tag] : [] }, created_at: now };
    const changed = await conversations.findOneAndUpdate(
      { business_id: businessId, _id: conversationId },
      { ...(direction === 'assign' ? { $addToSet: { tag_ids: tag } } : { $pull: { tag_ids: tag } }), $inc: { sequence: 1 }, $push: { outbox: entry }, $set: { updated_at: now } },
      { returnDocument: 'after' },
    );
    if (!changed) throw new Error(`no conversation ${conversationId}`);
    await timeline.insertOne({ _id: entry.id, business_id: businessId, conversation_id: conversationId, kind: 'event', event_type: entry.type, data: entry.data, created_at: now });
    await events.insertOne({ _id: entry.id, business_id: businessId, conversation_id: conversationId, sequence: changed.sequence, type: entry.type, data: entry.data, created_at: now });
    await conversations.updateOne({ business_id: businessId, _id: conversationId }, { $pull: { outbox: { id: entry.id } } });
    return { conversation: { uuid: conversationId }, tags: changed.tag_ids.map((uuid) => ({ uuid, name: uuid, color: '' })), results: [{ requested: { uuid: tag }, tag: { uuid: tag, name: tag, color: '' }, status: direction === 'assign' ? 'assigned' : 'removed', error: undefined }] };
  };
  const server = new grpc.Server();
  server.addService(ConversationActionsServiceService, {
    assignTags: unary(change('assign')),
    removeTags: unary(change('remove')),
  } as unknown as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((bound, failed) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, boundPort) => (error ? failed(error) : bound(boundPort))),
  );
  await untilStopped(port);
  await new Promise<void>((shutDown) => server.tryShutdown(() => shutDown()));
  await client.close();
  process.disconnect();
}

function unary<Request, Response>(handle: (request: Request) => Promise<Response>) {
  return (call: grpc.ServerUnaryCall<Request, Response>, callback: grpc.sendUnaryData<Response>) => {
    handle(call.request).then(
      (response) => callback(null, response),
      (error: Error) => callback({ code: grpc.status.INTERNAL, details: error.message }),
    );
  };
}

/** The unique `{ business_id, _id }` index of each collection the floor writes, as the product declares it. */
export async function prepareActionFloorCollections(database: { collection(name: string): Pick<Collection, 'createIndex'> }): Promise<void> {
  for (const name of ['conversations', 'timeline_events', 'events', 'action_groups']) {
    await database.collection(name).createIndex({ business_id: 1, _id: 1 }, { unique: true });
  }
}
