import { startTelemetry } from '@cmsg/platform/telemetry';

// Imported first by main.ts: the instrumentations patch express, grpc-js, kafkajs and redis as they load.
startTelemetry('gateway');
