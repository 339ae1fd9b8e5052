import './instrument';
import { Server } from '@grpc/grpc-js';
import { connectMongo, disconnectMongo, isMongoConnected } from '@cmsg/dal';
import { addHealthService, bindGrpcServer, createLogger, installGracefulShutdown, shutdownGrpcServer } from '@cmsg/platform';
import { config } from './config';

const logger = createLogger('scheduler');

async function main(): Promise<void> {
  await connectMongo(config.MONGODB_URI);
  const server = new Server();
  addHealthService(server, async () => isMongoConnected(), logger);
  const port = await bindGrpcServer(server, config.GRPC_ADDRESS);
  logger.info({ port }, 'scheduler listening');
  installGracefulShutdown(
    logger,
    [
      { name: 'grpc', close: () => shutdownGrpcServer(server) },
      { name: 'mongodb', close: () => disconnectMongo() },
    ],
    config.SHUTDOWN_GRACE_MS,
  );
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, 'scheduler failed to start');
  process.exit(1);
});
