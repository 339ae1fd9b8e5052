import type { BusinessRoute } from './business-route';

export const scheduledMessageRoutes: readonly BusinessRoute[] = [];
