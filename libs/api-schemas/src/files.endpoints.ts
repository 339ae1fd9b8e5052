import type { PublicEndpoint } from './public-endpoint';

export const FILE_ENDPOINTS: readonly PublicEndpoint[] = [];
