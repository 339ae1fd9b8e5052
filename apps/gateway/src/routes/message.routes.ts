import type { BusinessRoute } from './business-route';

export const messageRoutes: readonly BusinessRoute[] = [];
