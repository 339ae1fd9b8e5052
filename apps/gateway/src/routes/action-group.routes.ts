import type { BusinessRoute } from './business-route';

export const actionGroupRoutes: readonly BusinessRoute[] = [];
