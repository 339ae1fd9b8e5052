import type { PublicEndpoint } from './public-endpoint';

export const SCHEDULED_MESSAGE_ENDPOINTS: readonly PublicEndpoint[] = [];
