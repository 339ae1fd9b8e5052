import type { BusinessRoute } from './business-route';

export const testerRoutes: readonly BusinessRoute[] = [];
