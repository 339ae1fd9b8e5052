import path from 'node:path';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { type FileDescriptorProto, FileDescriptorProtoSchema, FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import * as grpc from '@grpc/grpc-js';
import { loadFileDescriptorSetFromBuffer, loadSync } from '@grpc/proto-loader';

const REFLECTION_PROTO = path.join(path.dirname(require.resolve('@grpc/reflection/package.json')), 'build/proto/grpc/reflection/v1/reflection.proto');

interface ReflectionResponse {
  list_services_response?: { service: { name: string }[] };
  file_descriptor_response?: { file_descriptor_proto: Buffer[] };
  error_response?: { error_code: number; error_message: string };
}

/** A grpc.reflection.v1 client, as grpcurl or Postman use it: what a server says about itself. */
export class ReflectionClient {
  private readonly client: grpc.Client & { ServerReflectionInfo(): grpc.ClientDuplexStream<object, ReflectionResponse> };

  constructor(
    readonly address: string,
    private readonly credentials: grpc.ChannelCredentials = grpc.credentials.createInsecure(),
  ) {
    const definition = loadSync(REFLECTION_PROTO, { keepCase: true });
    const service = (grpc.loadPackageDefinition(definition) as unknown as { grpc: { reflection: { v1: { ServerReflection: grpc.ServiceClientConstructor } } } }).grpc.reflection.v1
      .ServerReflection;
    this.client = new service(address, credentials) as unknown as ReflectionClient['client'];
  }

  async listServices(): Promise<string[]> {
    const response = await this.ask({ list_services: '' });
    return response.list_services_response!.service.map((service) => service.name);
  }

  /** The FileDescriptorSet of the file declaring `symbol` and every file it imports, fetched over reflection. */
  async descriptorSetOf(symbol: string): Promise<Buffer> {
    const files = new Map<string, FileDescriptorProto>();
    const add = (response: ReflectionResponse) => {
      if (response.error_response) throw new Error(`reflection: ${response.error_response.error_message}`);
      for (const bytes of response.file_descriptor_response!.file_descriptor_proto) {
        const file = fromBinary(FileDescriptorProtoSchema, bytes);
        files.set(file.name, file);
      }
    };
    add(await this.ask({ file_containing_symbol: symbol }));
    for (let missing = this.missingDependencies(files); missing.length > 0; missing = this.missingDependencies(files)) {
      for (const name of missing) add(await this.ask({ file_by_filename: name }));
    }
    return Buffer.from(toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: [...files.values()] })));
  }

  /** A client of `serviceName` built only from what reflection returned (no generated code). */
  async dynamicClient(serviceName: string, credentials = this.credentials): Promise<grpc.Client & Record<string, grpc.requestCallback<unknown> | unknown>> {
    const definition = loadFileDescriptorSetFromBuffer(await this.descriptorSetOf(serviceName), { keepCase: true, defaults: true });
    const constructor = definition[serviceName] as unknown as grpc.ServiceDefinition;
    const ClientConstructor = grpc.makeGenericClientConstructor(constructor, serviceName);
    return new ClientConstructor(this.address, credentials) as grpc.Client & Record<string, unknown>;
  }

  close(): void {
    this.client.close();
  }

  private missingDependencies(files: Map<string, FileDescriptorProto>): string[] {
    return [...new Set([...files.values()].flatMap((file) => file.dependency))].filter((name) => !files.has(name));
  }

  private ask(request: object): Promise<ReflectionResponse> {
    return new Promise((resolve, reject) => {
      const stream = this.client.ServerReflectionInfo();
      stream.once('data', (response: ReflectionResponse) => {
        resolve(response);
        stream.end();
      });
      stream.once('error', reject);
      stream.write(request);
    });
  }
}
