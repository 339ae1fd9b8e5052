import { recentReads } from '@cmsg/platform';
import type { BusinessScope } from './business-scope';

/** A read of one document of a business by its id, answered from a read at most `maxAgeMs` old. */
export type RecentScopedRead<Value> = (scope: BusinessScope, id: string) => Promise<Value>;

/** recentReads (libs/platform) of a document by its business and id: the same id in two businesses is two reads. */
export function recentScopedReads<Value>(read: (scope: BusinessScope, id: string) => Promise<Value>, options: { maxAgeMs: number; now?: () => number }): RecentScopedRead<Value> {
  const recent = recentReads(({ scope, id }: { scope: BusinessScope; id: string }) => read(scope, id), { ...options, keyOf: ({ scope, id }) => `${scope.businessId}/${id}` });
  return (scope, id) => recent({ scope, id });
}
