import { startTelemetry } from '@cmsg/platform/telemetry';

startTelemetry('scheduler');
