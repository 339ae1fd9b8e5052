import './instrument';
import { Server } from '@grpc/grpc-js';
import { connectMongo, disconnectMongo, isMongoConnected } from '@cmsg/dal';
import { addHealthService, bindGrpcServer, createKafka, createLogger, installGracefulShutdown, shutdownGrpcServer } from '@cmsg/platform';
import { config } from './config';

const logger = createLogger('actions-runner');

async function main(): Promise<void> {
  await connectMongo(config.MONGODB_URI);
  const producer = createKafka('actions-runner', config.KAFKA_BROKERS, logger).producer();
  await producer.connect();
  const server = new Server();
  addHealthService(server, async () => isMongoConnected(), logger);
  const port = await bindGrpcServer(server, config.GRPC_ADDRESS);
  logger.info({ port }, 'actions-runner listening');
  installGracefulShutdown(
    logger,
    [
      { name: 'grpc', close: () => shutdownGrpcServer(server) },
      { name: 'kafka', close: () => producer.disconnect() },
      { name: 'mongodb', close: () => disconnectMongo() },
    ],
    config.SHUTDOWN_GRACE_MS,
  );
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, 'actions-runner failed to start');
  process.exit(1);
});
