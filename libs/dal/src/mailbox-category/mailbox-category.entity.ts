import type { InferSchemaType } from 'mongoose';
import type { mailboxCategorySchema } from './mailbox-category.schema';

export type MailboxCategoryEntity = InferSchemaType<typeof mailboxCategorySchema>;
