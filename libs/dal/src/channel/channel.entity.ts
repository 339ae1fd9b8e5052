import type { InferSchemaType } from 'mongoose';
import type { channelSchema } from './channel.schema';

export type ChannelEntity = InferSchemaType<typeof channelSchema>;
