import type { BusinessRoute } from './business-route';
import { conversationRoutes } from './conversation.routes';
import { listRoutes } from './list.routes';

/** Every business route; a spec checks this matches PUBLIC_ENDPOINTS one to one. */
export const BUSINESS_ROUTES: readonly BusinessRoute[] = [...conversationRoutes, ...listRoutes];
