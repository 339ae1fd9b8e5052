import { Schema } from 'mongoose';

/** A catalog error as stored: `{ code, message }`. */
export const errorSchema = new Schema({ code: String, message: String }, { _id: false });
