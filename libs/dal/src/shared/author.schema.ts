import { Schema } from 'mongoose';

/** Who did something: `{ type, uuid }` (api_token, ai_employee, system, customer, human). */
export const authorSchema = new Schema({ type: { type: String, required: true }, uuid: { type: String, default: null } }, { _id: false });

/** An author as the timeline shows it: `{ type, uuid, name }`, the name as known when it was written (null when none). */
export const namedAuthorSchema = new Schema(
  { type: { type: String, required: true }, uuid: { type: String, default: null }, name: { type: String, default: null } },
  { _id: false },
);
