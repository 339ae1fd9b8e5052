import mongoose from 'mongoose';

/** A stored document as the driver reads it. */
export type StoredDocument = { _id: string } & Record<string, any>;

/**
 * A collection of the stack's database as stored, for tests that look under the API (what was
 * written) or set up what the API cannot (an expired upload, a moved clock, a crash half-way).
 * Straight driver access, no model: the product reads and writes through libs/dal's repositories.
 */
export function storedCollection<Document extends mongoose.mongo.Document = StoredDocument>(name: string): mongoose.mongo.Collection<Document> {
  return mongoose.connection.collection<Document>(name);
}

/** What a scan of the whole database found: per string, the collections holding it and how many documents each. */
export interface StoredDocumentsScan {
  found: Map<string, Record<string, number>>;
  collections: string[];
  documents: number;
  gridFsChunks: number;
}

/**
 * Every document of every collection of the connected database searched for the strings (GridFS
 * chunks as their bytes, other documents as JSON): what an erasure must have left nowhere.
 */
export async function scanStoredDocuments(needles: readonly string[]): Promise<StoredDocumentsScan> {
  const scan: StoredDocumentsScan = { found: new Map(), collections: [], documents: 0, gridFsChunks: 0 };
  const db = mongoose.connection.db!;
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    scan.collections.push(name);
    const chunks = name.endsWith('.chunks');
    for await (const document of db.collection(name).find()) {
      if (chunks) scan.gridFsChunks += 1;
      else scan.documents += 1;
      const text = chunks ? Buffer.from((document['data'] as { buffer: Uint8Array }).buffer) : JSON.stringify(document);
      for (const needle of needles) {
        if (!text.includes(needle)) continue;
        const places = scan.found.get(needle) ?? {};
        places[name] = (places[name] ?? 0) + 1;
        scan.found.set(needle, places);
      }
    }
  }
  return scan;
}
