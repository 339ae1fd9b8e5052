// @cmsg/testing: what most specs use. Apart, so that a spec loads only what it uses (jest loads a
// file's imports again for every file): @cmsg/testing/local-stack (stacks of a spec's own, with the
// Kafka cleanup), /kafka (topic probes), /grpc (clients of the stack's services), /fuzz (fast-check
// arbitraries and the OpenAPI validator).
export { ApiClient } from './api-client';
export type { ApiResponse } from './api-client';
export type { LocalStackOptions, StackDescription, StackFakes } from './local-stack';
export { AppProcess } from './app-process';
export { killLeftoverProcesses, trackLeftoverProcess } from './leftover-processes';
export { freePort } from './free-port';
export { ensureInfrastructure, withDatabase, WORKSPACE_ROOT } from './infra-env';
export { integrationStack, integrationFakes, connectToStackDatabase } from './integration-stack';
export { stackFileOfCurrentRun } from './stack-file';
export { createTestBusiness, createTestBusinessIn, contactSeed, seedStackDatabase, uniquePhone, minutesAgo } from './test-business';
export { closeStackRedisConnections, stackEndpointListVersions } from './stack-endpoint-list-versions';
export type { TestBusiness, BusinessSeedInput, ContactSeedInput } from './test-business';
export { eventually, lastStaleReadAfter, withinOneWindow } from './eventually';
export { connectToDatabase, dropConnectedDatabase, scanStoredDocuments, storedCollection } from '@cmsg/testing-database';
export type { StoredDocument, StoredDocumentsScan } from '@cmsg/testing-database';
export * from './fakes';
export { TestPki } from './test-certificates';
export type { CertificateFiles, TestCertificateAuthority } from './test-certificates';
export { startThrowawayMongoServer, residentBytes } from './servers/throwaway-mongo-server';
export type { MongoBackend, ThrowawayMongoServer } from './servers/throwaway-mongo-server';
export { startThrowawayRedisServer } from './servers/throwaway-redis-server';
export type { ThrowawayRedisServer } from './servers/throwaway-redis-server';
export { startThrowawayKafkaBroker } from './servers/throwaway-kafka-broker';
export type { ThrowawayKafkaBroker } from './servers/throwaway-kafka-broker';
export { webhookFanOut } from './webhook-events';
export type { FanOutEvent } from './webhook-events';
export { parsePrometheusText, sampleTotal } from './prometheus-samples';
export type { PrometheusSample } from './prometheus-samples';
