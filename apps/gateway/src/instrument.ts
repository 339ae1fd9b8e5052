import { startTelemetry } from '@cmsg/platform/telemetry';
import { redactSignedFilePath } from './file-transfers/signed-path-redaction';

// Imported first by main.ts: the instrumentations patch express, grpc-js, kafkajs and redis as they load.
// Signed upload/download paths carry their credential: spans get the redacted path, as the logs do.
startTelemetry('gateway', { redactIncomingPath: redactSignedFilePath });
