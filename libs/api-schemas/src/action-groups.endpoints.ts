import type { PublicEndpoint } from './public-endpoint';

export const ACTION_GROUP_ENDPOINTS: readonly PublicEndpoint[] = [];
