import mongoose from 'mongoose';

/** A stored document as the driver reads it. */
export type StoredDocument = { _id: string } & Record<string, any>;

/**
 * A collection of the stack's database as stored, for tests that look under the API (what was
 * written) or set up what the API cannot (an expired upload, a moved clock, a crash half-way).
 * Straight driver access, no model: the product reads and writes through libs/dal's repositories.
 */
export function storedCollection(name: string): mongoose.mongo.Collection<StoredDocument> {
  return mongoose.connection.collection<StoredDocument>(name);
}
