import { Schema } from 'mongoose';

/** A catalog error as stored: `{ code, message }`; a send's failure adds the chat platform's `provider_code` (CONTRACT 10.3). */
export const errorSchema = new Schema({ code: String, message: String, provider_code: { type: String, default: undefined } }, { _id: false });
