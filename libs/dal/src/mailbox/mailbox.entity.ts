import type { InferSchemaType } from 'mongoose';
import type { mailboxSchema } from './mailbox.schema';

export type MailboxEntity = InferSchemaType<typeof mailboxSchema>;
