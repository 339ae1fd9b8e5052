import { configVars, loadConfig } from '@cmsg/platform';

export const config = loadConfig({
  GRPC_ADDRESS: configVars.grpcAddress('127.0.0.1:50052'),
  MONGODB_URI: configVars.mongodbUri,
  SHUTDOWN_GRACE_MS: configVars.shutdownGraceMs,
});
