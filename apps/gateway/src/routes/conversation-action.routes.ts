import type { BusinessRoute } from './business-route';

export const conversationActionRoutes: readonly BusinessRoute[] = [];
