import type { PublicEndpoint } from './public-endpoint';

export const CONVERSATION_ACTION_ENDPOINTS: readonly PublicEndpoint[] = [];
