import { startTelemetry } from '@cmsg/platform/telemetry';

startTelemetry('actions-runner');
