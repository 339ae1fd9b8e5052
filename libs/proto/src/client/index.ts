export { createServiceClient, REQUEST_ID_METADATA, AUTHORIZATION_METADATA } from './service-client';
export type { CallContext, CallOptions, GeneratedClientConstructor, PromiseClient, ServiceClient, ServiceClientOptions } from './service-client';
export type { ClientSecurity } from './client-security';
export { catalogErrorStatus, catalogErrorFromServiceError, STATUS_DETAILS_TRAILER } from './catalog-status';
export { readMethodsByService, readRetryMethodConfig, READ_RETRY_POLICY } from './retry-policy';
export { channelServiceConfig } from './service-config';
