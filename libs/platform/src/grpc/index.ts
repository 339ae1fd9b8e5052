// @cmsg/platform/grpc: the gRPC servers and clients (grpc-js, the generated services), apart from @cmsg/platform so that what serves or calls none does not load them.
export { adaptUnaryService } from './grpc-server';
export type { AsyncUnaryImplementation } from './grpc-server';
export { requestContextOf } from './grpc-call-context';
export { bindGrpcServer, shutdownGrpcServer } from './grpc-server-lifecycle';
export { ServiceHealth, MONGODB_HEALTH_SERVICE } from './grpc-health';
export { grpcSecurityConfigShape } from './grpc-security-config';
export type { GrpcSecurityConfig } from './grpc-security-config';
export { grpcServerSecurity } from './grpc-server-security';
export { grpcClientSecurity } from './grpc-client-security';
export { callerAuthenticationInterceptor, certificateName, CALLER_METADATA } from './grpc-caller-authentication';
export { GrpcClients } from './grpc-clients';
export { runGrpcService } from './grpc-service-runner';
export type { GrpcServiceConfig, GrpcServiceRegistrar, GrpcServiceSpec, StartedService } from './grpc-service-runner';
