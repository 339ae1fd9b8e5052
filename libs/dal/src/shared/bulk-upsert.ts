import type { AnyBulkWriteOperation, Model } from 'mongoose';
import { isDuplicateKeyError } from './duplicate-key';

type Fields = Record<string, unknown>;

/** One upsert (or plain update) of a bulk write, keyed by its filter. */
export interface UpsertOperation {
  updateOne: { filter: Fields; update: { $set?: Fields; $setOnInsert?: Fields; $inc?: Fields }; upsert: boolean };
}

export interface UpsertCounts {
  inserted: number;
  updated: number;
}

/** An upsert that lost twice to a unique key: the key belongs to another document (another business's uuid, a token in use...). */
export class UpsertConflictError extends Error {
  constructor(
    readonly collection: string,
    readonly filter: Fields,
    options?: { cause?: unknown },
  ) {
    super(`${collection} ${JSON.stringify(filter)}: duplicate key; an id or unique key of this document already belongs to another business or object`, options);
    this.name = 'UpsertConflictError';
  }
}

export function upsert(filter: Fields, $set: Fields, $setOnInsert?: Fields): UpsertOperation {
  return { updateOne: { filter, update: $setOnInsert ? { $set, $setOnInsert } : { $set }, upsert: true } };
}

export function update(filter: Fields, $set: Fields): UpsertOperation {
  return { updateOne: { filter, update: { $set }, upsert: false } };
}

interface BulkFailure {
  writeErrors?: { index: number; code?: unknown }[] | { index: number; code?: unknown };
  result?: { upsertedCount?: number; modifiedCount?: number };
}

/**
 * Runs the operations in order in one bulk write. Two loads racing on the same new document can
 * both try to insert it: the loser's operation meets a duplicate key and is retried once (the
 * racing document is there now and the upsert matches it); a second duplicate key is a real
 * conflict (UpsertConflictError). The rest of the operations then run on.
 */
export async function bulkUpsert(model: Model<any>, operations: readonly UpsertOperation[]): Promise<UpsertCounts> {
  const counts: UpsertCounts = { inserted: 0, updated: 0 };
  const add = (result: { upsertedCount?: number; modifiedCount?: number } | undefined) => {
    counts.inserted += result?.upsertedCount ?? 0;
    counts.updated += result?.modifiedCount ?? 0;
  };
  let start = 0;
  while (start < operations.length) {
    try {
      add(await model.bulkWrite(operations.slice(start) as unknown as AnyBulkWriteOperation[], { ordered: true }));
      return counts;
    } catch (error) {
      const failure = error as BulkFailure;
      const [first] = writeErrorsOf(failure);
      if (!first || !isDuplicateKeyError(first)) throw error;
      add(failure.result);
      const failed = operations[start + first.index]!;
      try {
        add(await model.bulkWrite([failed] as unknown as AnyBulkWriteOperation[]));
      } catch (retryError) {
        if (!isDuplicateKeyFailure(retryError)) throw retryError;
        throw new UpsertConflictError(model.collection.name, failed.updateOne.filter, { cause: retryError });
      }
      start += first.index + 1;
    }
  }
  return counts;
}

function writeErrorsOf(failure: BulkFailure): { index: number; code?: unknown }[] {
  return ([] as { index: number; code?: unknown }[]).concat(failure?.writeErrors ?? []);
}

function isDuplicateKeyFailure(error: unknown): boolean {
  return isDuplicateKeyError(error) || writeErrorsOf(error as BulkFailure).some(isDuplicateKeyError);
}
