import { Schema } from 'mongoose';

/** Who did something: `{ type, uuid }` (api_token, ai_employee, system, customer, human). */
export const authorSchema = new Schema({ type: { type: String, required: true }, uuid: { type: String, default: null } }, { _id: false });
