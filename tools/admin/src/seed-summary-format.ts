import { SEEDED_COLLECTIONS, type SeedSummary } from '@cmsg/seed';

/** One block per business: what the file defines, and how much of it this load created or changed. */
export function formatSeedSummary(summary: SeedSummary, source: string): string {
  const width = Math.max(...SEEDED_COLLECTIONS.map((collection) => collection.length));
  const blocks = summary.businesses.map((business) => {
    const rows = SEEDED_COLLECTIONS.filter((collection) => business.counts[collection].total > 0).map((collection) => {
      const { total, inserted, updated } = business.counts[collection];
      return `  ${collection.padEnd(width)}  ${String(total).padStart(5)} defined  ${String(inserted).padStart(5)} inserted  ${String(updated).padStart(5)} updated`;
    });
    return [`business ${business.slug} (${business.uuid})`, ...rows].join('\n');
  });
  const changed = summary.businesses.some((business) => SEEDED_COLLECTIONS.some((c) => business.counts[c].inserted + business.counts[c].updated > 0));
  const count = summary.businesses.length;
  return [...blocks, `seeded ${count} business${count === 1 ? '' : 'es'} from ${source}${changed ? '' : ' (no changes)'}`].join('\n');
}
