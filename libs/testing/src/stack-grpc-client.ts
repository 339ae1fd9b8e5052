import type * as grpc from '@grpc/grpc-js';
import { type ClientSecurity, type GeneratedClientConstructor, type ServiceClient, createServiceClient } from '@cmsg/proto';
import { integrationStack } from './integration-stack';

const ADDRESS_VARIABLE = {
  conversations: 'CONVERSATIONS_GRPC_ADDRESS',
  scheduler: 'SCHEDULER_GRPC_ADDRESS',
  actions: 'ACTIONS_GRPC_ADDRESS',
} as const;

export type StackService = keyof typeof ADDRESS_VARIABLE;

/** The integration stack's services are local plaintext (GRPC_ALLOW_INSECURE=true). */
export const LOCAL_PLAINTEXT: ClientSecurity = { insecure: true };

/** A client of one service of the integration stack, through the published client helper. */
export function stackGrpcClient<Client extends grpc.Client>(
  ClientConstructor: GeneratedClientConstructor<Client>,
  service: StackService,
  options: { deadlineMs: number; security?: ClientSecurity },
): ServiceClient<Client> {
  return createServiceClient(ClientConstructor, {
    address: stackServiceAddress(service),
    security: options.security ?? LOCAL_PLAINTEXT,
    deadlineMs: options.deadlineMs,
  });
}

export function stackServiceAddress(service: StackService): string {
  const address = integrationStack().env[ADDRESS_VARIABLE[service]];
  if (!address) throw new Error(`the integration stack has no ${ADDRESS_VARIABLE[service]}`);
  return address;
}
