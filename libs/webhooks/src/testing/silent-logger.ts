import { createLogger } from '@cmsg/platform';

export const silentLogger = createLogger('webhooks-spec', 'silent');
