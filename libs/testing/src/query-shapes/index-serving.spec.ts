import { type QueryShape, queryShapesOf } from '@cmsg/dal';
import { type DeclaredIndex, describeIndex, judgeQueryShape } from './index-serving';

const index = (keys: Record<string, number>, unique = false): DeclaredIndex => ({ collection: 'c', keys: Object.entries(keys), unique });
const ID = index({ _id: 1 }, true);
const LIST = index({ business_id: 1, sort_at: -1, _id: -1 });
const BY_CONTACT = index({ business_id: 1, contact_id: 1 }, true);
const DUE = index({ status: 1, schedule_at: 1 });
const INDEXES = [ID, LIST, BY_CONTACT, DUE];

function find(filter: Record<string, unknown>, sort?: Record<string, number>, limit?: number): QueryShape {
  return queryShapesOf('find', { find: 'c', filter, ...(sort ? { sort } : {}), ...(limit ? { limit } : {}) })[0]!;
}

function servingIndexes(shape: QueryShape, indexes: DeclaredIndex[] = INDEXES): (string | null)[] | 'unserved' {
  const verdict = judgeQueryShape(shape, indexes);
  return verdict.served ? verdict.alternatives.map((alternative) => (alternative.index ? describeIndex(alternative.index) : null)) : 'unserved';
}

describe('judgeQueryShape', () => {
  it('serves equality fields in any order from an index prefix', () => {
    expect(servingIndexes(find({ contact_id: 'x', business_id: 'b' }))).toEqual(['{business_id: 1, contact_id: 1} unique']);
    expect(servingIndexes(find({ business_id: 'b' }))).toEqual(['{business_id: 1, sort_at: -1, _id: -1}']);
    expect(servingIndexes(find({ status: { $in: ['pending', 'firing'] } }))).toEqual(['{status: 1, schedule_at: 1}']);
  });

  it('refuses a filter field the index lacks, or one that is not in its leading keys', () => {
    expect(servingIndexes(find({ business_id: 'b', inbox_status: 'pending' }))).toBe('unserved');
    expect(servingIndexes(find({ sort_at: new Date() }))).toBe('unserved');
    expect(servingIndexes(find({ schedule_at: new Date() }))).toBe('unserved');
  });

  it('serves the sort in the index direction or all reversed, never mixed', () => {
    expect(servingIndexes(find({ business_id: 'b' }, { sort_at: -1, _id: -1 }))).toEqual(['{business_id: 1, sort_at: -1, _id: -1}']);
    expect(servingIndexes(find({ business_id: 'b' }, { sort_at: 1, _id: 1 }))).toEqual(['{business_id: 1, sort_at: -1, _id: -1}']);
    expect(servingIndexes(find({ business_id: 'b' }, { sort_at: -1, _id: 1 }))).toBe('unserved');
    expect(servingIndexes(find({ business_id: 'b' }, { _id: -1 }))).toBe('unserved');
    expect(servingIndexes(find({ business_id: 'b' }, { updated_at: -1 }))).toBe('unserved');
  });

  it('serves one range after the equality fields, and a range on a sort field by the sort keys', () => {
    expect(servingIndexes(find({ status: 'pending', schedule_at: { $lte: new Date() } }))).toEqual(['{status: 1, schedule_at: 1}']);
    expect(servingIndexes(find({ status: 'pending', schedule_at: { $lte: new Date() } }, { schedule_at: 1 }))).toEqual(['{status: 1, schedule_at: 1}']);
    expect(servingIndexes(find({ status: { $ne: 'sent' }, schedule_at: { $lte: new Date() } }))).toBe('unserved');
    expect(servingIndexes(find({ schedule_at: { $lte: new Date() }, status: 'pending' }, { _id: 1 }))).toBe('unserved');
    expect(servingIndexes(find({ business_id: 'b', sort_at: { $lt: new Date() } }, { sort_at: -1, _id: -1 }))).toEqual(['{business_id: 1, sort_at: -1, _id: -1}']);
  });

  it('serves a sorted page that filters on keys the index holds after its sort keys', () => {
    const FILTERED = index({ business_id: 1, sort_at: -1, _id: -1, inbox_status: 1, updated_at: 1, last_inbound_at: 1 });
    const sorted = { sort_at: -1, _id: -1 };
    const served = (filter: Record<string, unknown>, sort: Record<string, number> | undefined = sorted) => servingIndexes(find(filter, sort), [FILTERED]);
    const described = describeIndex(FILTERED);
    expect(served({ business_id: 'b', inbox_status: 'pending' })).toEqual([described]);
    expect(served({ business_id: 'b', inbox_status: 'pending', updated_at: { $gte: 1 }, last_inbound_at: { $not: { $gt: 1 } } })).toEqual([described]);
    expect(served({ business_id: 'b', $or: [{ sort_at: { $lt: 1 } }, { sort_at: 1, _id: { $lt: 'x' } }], inbox_status: 'pending', updated_at: { $gte: 1 } })).toEqual([described, described]);
    // A condition on a key the index lacks, no sort, no leading equality, or a sort the index does not hold.
    expect(served({ business_id: 'b', mailbox_id: 'm' })).toBe('unserved');
    expect(served({ business_id: 'b', inbox_status: 'pending' }, {})).toBe('unserved');
    expect(served({ inbox_status: 'pending' }, { sort_at: -1, _id: -1 })).toBe('unserved');
    expect(served({ business_id: 'b', inbox_status: 'pending' }, { sort_at: -1, _id: 1 })).toBe('unserved');
    expect(served({ business_id: 'b', inbox_status: 'pending' }, { updated_at: 1 })).toBe('unserved');
  });

  it('needs an index for every $or alternative', () => {
    const page = find({ business_id: 'b', $or: [{ sort_at: { $lt: 1 } }, { sort_at: 1, _id: { $lt: 'x' } }] }, { sort_at: -1, _id: -1 });
    expect(servingIndexes(page)).toEqual(['{business_id: 1, sort_at: -1, _id: -1}', '{business_id: 1, sort_at: -1, _id: -1}']);
    expect(servingIndexes(find({ $or: [{ business_id: 'b' }, { status: 'x', owner: 'y' }] }))).toBe('unserved');
  });

  it('serves any filter that pins every key of a unique index, the _id index included', () => {
    expect(servingIndexes(find({ _id: 'x' }))).toEqual(['{_id: 1} unique']);
    expect(servingIndexes(find({ _id: { $in: ['x', 'y'] }, business_id: 'b', status: { $ne: 'done' } }))).toEqual(['{_id: 1} unique']);
    expect(servingIndexes(find({ business_id: 'b', contact_id: 'c', tag_ids: { $size: 2 } }))).toEqual(['{business_id: 1, contact_id: 1} unique']);
    expect(servingIndexes(find({ _id: { $gt: 'x' } }))).toEqual(['{_id: 1} unique']);
    expect(servingIndexes(find({ _id: { $gt: 'x' }, status: 'pending' }))).toBe('unserved');
  });

  it('serves an empty filter only for one unsorted document or a count', () => {
    expect(servingIndexes(find({}, undefined, 1))).toEqual([null]);
    expect(servingIndexes(find({}))).toBe('unserved');
    expect(servingIndexes(queryShapesOf('count', { count: 'c', query: {} })[0]!)).toEqual([null]);
    expect(servingIndexes(find({}, { business_id: 1 }))).toEqual(['{business_id: 1, sort_at: -1, _id: -1}']);
  });

  it('serves distinct like a sort on its key after the equality fields', () => {
    const distinct = (query: Record<string, unknown>, key: string) => queryShapesOf('distinct', { distinct: 'c', key, query })[0]!;
    expect(servingIndexes(distinct({ status: 'pending' }, 'schedule_at'))).toEqual(['{status: 1, schedule_at: 1}']);
    expect(servingIndexes(distinct({ status: 'pending' }, 'business_id'))).toBe('unserved');
  });

  it('looks only at the indexes of the shape collection', () => {
    expect(servingIndexes(find({ business_id: 'b' }), [{ ...LIST, collection: 'other' }])).toBe('unserved');
  });

  it('names what is missing and the closest index', () => {
    const verdict = judgeQueryShape(find({ business_id: 'b', inbox_status: 'pending' }, { sort_at: -1 }), INDEXES);
    expect(verdict.alternatives[0]!.how).toBe(
      'needs an index on business_id (equality), inbox_status (equality), sort_at -1 (sort); closest: {business_id: 1, sort_at: -1, _id: -1} (its first 1 key(s) match the equality fields)',
    );
  });
});
