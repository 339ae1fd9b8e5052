import { createLogger } from '@cmsg/platform';

export const silentLogger = createLogger('actions-domain-spec', 'silent');
