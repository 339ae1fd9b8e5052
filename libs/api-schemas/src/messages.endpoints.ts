import type { PublicEndpoint } from './public-endpoint';

export const MESSAGE_ENDPOINTS: readonly PublicEndpoint[] = [];
