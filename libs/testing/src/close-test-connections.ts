import { disconnectMongo } from '@cmsg/dal';
import { closeStackRedisConnections } from './stack-endpoint-list-versions';

// Runs after every integration test file: a file run in band shares the jest process, and an open
// MongoDB pool would keep that process alive after the run.
afterAll(async () => {
  await disconnectMongo();
  await closeStackRedisConnections();
});
