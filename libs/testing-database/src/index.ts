// Direct access to a test's MongoDB database, for specs of every project (the product reads and
// writes through libs/dal's repositories). A testing library of its own, beneath @cmsg/testing, so
// that the specs of the libraries @cmsg/testing itself uses (seed, webhooks) can use it without a
// circle.
export { connectToDatabase, connectToOwnDatabase, dropConnectedDatabase, dropDatabaseAt } from './own-database';
export type { OwnDatabaseOptions } from './own-database';
export { watchMongoCommands } from './mongo-commands';
export type { SentCommand } from './mongo-commands';
export { scanStoredDocuments, storedCollection } from './stored-documents';
export type { StoredDocument, StoredDocumentsScan } from './stored-documents';
