import type { Server } from '@grpc/grpc-js';
import { loadFileDescriptorSetFromBuffer } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { FILE_DESCRIPTOR_SET_BASE64 } from '@cmsg/proto';

/** grpc.reflection.v1 (and v1alpha) describing exactly the services this server offers. */
export function addReflection(server: Server, serviceNames: readonly string[]): void {
  const definitions = loadFileDescriptorSetFromBuffer(Buffer.from(FILE_DESCRIPTOR_SET_BASE64, 'base64'));
  new ReflectionService(definitions, { services: [...serviceNames] }).addToServer(server);
}
