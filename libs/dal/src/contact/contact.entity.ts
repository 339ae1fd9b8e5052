import type { InferSchemaType } from 'mongoose';
import type { contactSchema } from './contact.schema';

export type ContactEntity = InferSchemaType<typeof contactSchema>;

/** The keys a contact is found by (normalised: shared/lookup-keys.ts). */
export type ContactLookupKey = { phone_key: string } | { chat_user_id: string } | { username_key: string };
