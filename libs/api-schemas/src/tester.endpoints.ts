import type { PublicEndpoint } from './public-endpoint';

export const TESTER_ENDPOINTS: readonly PublicEndpoint[] = [];
