import type { LocalStackOptions, StackDescription } from '@cmsg/testing';
import { LocalStack } from '@cmsg/testing/local-stack';
import { type ThrowawayMongoServer, startThrowawayMongoServer } from '@cmsg/testing';

/** A stack of the product on a MongoDB of its own. */
export interface BenchStack {
  description: StackDescription;
  mongo: ThrowawayMongoServer;
  /** The apps, then the MongoDB and everything written to it. */
  stop(): Promise<void>;
}

/**
 * The apps on the shared Kafka and Redis but on a memory-backed MongoDB started for this run: what a
 * benchmark writes (100,000 conversations, 100 MiB of file chunks) would otherwise stay on the heap
 * of the server every test shares (its oplog keeps every write), and the server's CPU is then the
 * benchmark's alone.
 */
export async function startBenchStack(options: Omit<LocalStackOptions, 'mongodbUri'>): Promise<BenchStack> {
  const mongo = await startThrowawayMongoServer('memory');
  const stack = new LocalStack({ ...options, mongodbUri: mongo.uri });
  try {
    const description = await stack.start();
    return {
      description,
      mongo,
      stop: async () => {
        try {
          await stack.stop();
        } finally {
          mongo.stop();
        }
      },
    };
  } catch (error) {
    mongo.stop();
    throw error;
  }
}
