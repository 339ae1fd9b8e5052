import type { BusinessRoute } from './business-route';

export const fileRoutes: readonly BusinessRoute[] = [];
