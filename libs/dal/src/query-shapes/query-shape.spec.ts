import { ObjectId } from 'mongodb';
import { conjunctionsOf, describeQueryShape, queryShapesOf } from './query-shape';

const describe1 = (commandName: string, command: Record<string, unknown>) => queryShapesOf(commandName, command).map(describeQueryShape);

describe('queryShapesOf', () => {
  it('reduces a find to its fields, their operator classes and the sort, values dropped', () => {
    const command = {
      find: 'conversations',
      filter: { business_id: 'b1', sort_at: { $lt: new Date() }, tag_ids: { $all: ['t1'] }, contact_id: { $in: ['c1', 'c2'] }, mailbox_id: null },
      sort: { sort_at: -1, _id: -1 },
      limit: 101,
    };
    expect(describe1('find', command)).toEqual(['find conversations {business_id: eq, contact_id: in, mailbox_id: eq, sort_at: range, tag_ids: all} sort {sort_at: -1, _id: -1}']);
  });

  it('reads the sort the driver sends as a Map, in its order', () => {
    const command = { find: 'conversations', filter: { business_id: 'b1' }, sort: new Map([['sort_at', -1], ['_id', -1]]) };
    expect(describe1('find', command)).toEqual(['find conversations {business_id: eq} sort {sort_at: -1, _id: -1}']);
    const claim = { findAndModify: 'x', query: { status: 'due' }, sort: new Map([['due_at', 1]]) };
    expect(describe1('findAndModify', claim)).toEqual(['findAndModify x {status: eq} sort {due_at: 1} one']);
  });

  it('marks a findOne as one document, and BSON values and sub-documents as equalities', () => {
    const command = { find: 'files', filter: { _id: new ObjectId(), upload: { state: 'done' } }, limit: 1, singleBatch: true };
    expect(describe1('find', command)).toEqual(['find files {_id: eq, upload: eq} one']);
  });

  it('keeps a $or as alternatives and expands them beside the fields they share', () => {
    const [shape] = queryShapesOf('find', {
      find: 'conversations',
      filter: { business_id: 'b1', $or: [{ sort_at: { $lt: 1 } }, { sort_at: 1, _id: { $lt: 'x' } }] },
      sort: { sort_at: -1, _id: -1 },
    });
    expect(describeQueryShape(shape!)).toBe('find conversations {business_id: eq, $or: [{sort_at: range}, {_id: range, sort_at: eq}]} sort {sort_at: -1, _id: -1}');
    expect(conjunctionsOf(shape!.filter)).toEqual([
      { business_id: 'eq', sort_at: 'range' },
      { business_id: 'eq', sort_at: 'eq', _id: 'range' },
    ]);
  });

  it('merges $and clauses, multiplies two $or and reads $nor, $exists, $ne and regexes', () => {
    const [shape] = queryShapesOf('find', {
      find: 'messages',
      filter: {
        $and: [{ business_id: 'b' }, { created_at: { $gte: 1 } }, { created_at: { $lt: 2 } }, { $or: [{ a: 1 }, { b: 1 }] }],
        $or: [{ c: 1 }, { d: { $exists: true } }],
        $nor: [{ e: 1 }],
        f: { $ne: 1 },
        g: /^x/,
      },
    });
    expect(describeQueryShape(shape!)).toBe(
      'find messages {business_id: eq, created_at: range, e: not, f: ne, g: regex, $or: [{a: eq, c: eq}, {a: eq, d: exists}, {b: eq, c: eq}, {b: eq, d: exists}]}',
    );
  });

  it('reads an $elemMatch on sub-documents as conditions on the dotted sub-fields', () => {
    const command = { find: 'action_groups', filter: { actions: { $elemMatch: { status: 'pending', attempt: { $gt: 1 } } } } };
    expect(describe1('find', command)).toEqual(['find action_groups {actions.attempt: range, actions.status: eq}']);
    expect(describe1('find', { find: 'x', filter: { scores: { $elemMatch: { $gt: 1 } } } })).toEqual(['find x {scores: elemMatch}']);
  });

  it('gives one shape per statement of an update or delete', () => {
    const update = {
      update: 'conversations',
      updates: [
        { q: { _id: 'c1', business_id: 'b1' }, u: { $set: { a: 1 } } },
        { q: { 'outbox.id': 'e1' }, u: { $pull: { outbox: { id: 'e1' } } }, multi: true },
      ],
    };
    expect(describe1('update', update)).toEqual(['update conversations {_id: eq, business_id: eq} one', 'update conversations {outbox.id: eq}']);
    expect(describe1('delete', { delete: 'files', deletes: [{ q: { status: 'pending', pending_expires_at: { $lte: 1 } }, limit: 0 }] })).toEqual([
      'delete files {pending_expires_at: range, status: eq}',
    ]);
  });

  it('reads findAndModify, count and distinct', () => {
    expect(describe1('findAndModify', { findAndModify: 'scheduled_messages', query: { status: 'pending', schedule_at: { $lte: 1 } }, sort: { schedule_at: 1 }, update: {} })).toEqual([
      'findAndModify scheduled_messages {schedule_at: range, status: eq} sort {schedule_at: 1} one',
    ]);
    expect(describe1('count', { count: 'tags', query: { business_id: 'b' } })).toEqual(['count tags {business_id: eq}']);
    expect(describe1('distinct', { distinct: 'scheduled_messages', key: 'business_id', query: { status: 'pending' } })).toEqual([
      'distinct scheduled_messages {status: eq} key business_id',
    ]);
  });

  it('takes an aggregate pipeline by its leading $match and $sort stages, and a $lookup by its foreign field', () => {
    const command = {
      aggregate: 'messages',
      pipeline: [{ $match: { business_id: 'b' } }, { $match: { conversation_id: 'c' } }, { $sort: { created_at: -1 } }, { $lookup: { from: 'contacts', localField: 'contact_id', foreignField: '_id', as: 'c' } }],
    };
    expect(describe1('aggregate', command)).toEqual(['aggregate messages {business_id: eq, conversation_id: eq} sort {created_at: -1}', 'aggregate contacts {_id: eq}']);
    // countDocuments is an aggregate of a $match and a $group.
    expect(describe1('aggregate', { aggregate: 'tags', pipeline: [{ $match: { business_id: 'b' } }, { $group: { _id: 1, n: { $sum: 1 } } }] })).toEqual(['aggregate tags {business_id: eq}']);
    expect(describe1('aggregate', { aggregate: 'conversations', pipeline: [{ $changeStream: {} }] })).toEqual([]);
  });

  it('ignores commands that query nothing', () => {
    expect(describe1('insert', { insert: 'tags', documents: [{}] })).toEqual([]);
    expect(describe1('getMore', { getMore: 1, collection: 'tags' })).toEqual([]);
    expect(describe1('ping', { ping: 1 })).toEqual([]);
  });
});
