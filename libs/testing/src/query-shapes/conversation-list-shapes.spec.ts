import { type ConversationListFilter, conversationListQuery, describeQueryShape, queryShapesOf } from '@cmsg/dal';
import { WORKSPACE_ROOT } from '../infra-env';
import { type DeclaredIndex, judgeQueryShape } from './index-serving';
import { declaredIndexesOf, loadModels, modelSourceFiles } from './declared-indexes';

/**
 * Every combination of the conversation list's filters (CONTRACT 9.1), with and without a cursor,
 * in both orders, is a query shape the list indexes serve: the integration suite can only send
 * some of them, the index-shape check judges only what was sent.
 */
describe('the conversation list queries', () => {
  let indexes: DeclaredIndex[] = [];

  beforeAll(async () => {
    indexes = declaredIndexesOf(await loadModels(modelSourceFiles(WORKSPACE_ROOT))).filter((index) => index.collection === 'conversations');
  });

  const since = new Date('2025-01-30T10:00:00Z');
  const testerSince = new Date('2025-02-01T10:00:00Z');
  const choices = {
    inboxStatus: [undefined, 'pending'],
    tagIds: [undefined, ['t1'], ['t1', 't2']],
    mailboxId: [undefined, 'm1'],
    aiEmployeeId: [undefined, 'a1', null],
    isTester: [undefined, true, false],
    window: [undefined, { open: true, since, testerSince: since }, { open: false, since, testerSince: since }, { open: true, since, testerSince }, { open: false, since, testerSince }],
    updatedSince: [undefined, since],
  } as const;

  function* filters(): Generator<ConversationListFilter> {
    for (const inboxStatus of choices.inboxStatus)
      for (const tagIds of choices.tagIds)
        for (const mailboxId of choices.mailboxId)
          for (const aiEmployeeId of choices.aiEmployeeId)
            for (const isTester of choices.isTester)
              for (const window of choices.window)
                for (const updatedSince of choices.updatedSince) {
                  const filter: ConversationListFilter = {};
                  if (inboxStatus !== undefined) filter.inboxStatus = inboxStatus;
                  if (tagIds !== undefined) filter.tagIds = tagIds;
                  if (mailboxId !== undefined) filter.mailboxId = mailboxId;
                  if (aiEmployeeId !== undefined) filter.aiEmployeeId = aiEmployeeId;
                  if (isTester !== undefined) filter.isTester = isTester;
                  if (window !== undefined) filter.window = window;
                  if (updatedSince !== undefined) filter.updatedSince = updatedSince;
                  yield filter;
                }
  }

  it('are each served by a declared index, with or without a cursor, in either order', () => {
    const unserved: string[] = [];
    let judged = 0;
    for (const filter of filters()) {
      for (const direction of [1, -1] as const) {
        const beyond = direction === 1 ? '$gt' : '$lt';
        const keysets = [{}, { $or: [{ sort_at: { [beyond]: since } }, { sort_at: since, _id: { [beyond]: 'x' } }] }];
        for (const after of keysets) {
          const query = { ...conversationListQuery(filter, after), business_id: 'b' };
          const [shape] = queryShapesOf('find', { find: 'conversations', filter: query, sort: { sort_at: direction, _id: direction }, limit: 51 });
          judged += 1;
          if (!judgeQueryShape(shape!, indexes).served) unserved.push(describeQueryShape(shape!));
        }
      }
    }
    expect(judged).toBe(2 * 3 * 2 * 3 * 3 * 5 * 2 * 2 * 2);
    expect([...new Set(unserved)]).toEqual([]);
  });

  it('would not all be served by the unfiltered index alone (the check can fail)', () => {
    const unfilteredOnly = indexes.filter((index) => index.keys[1]?.[0] === 'sort_at');
    const shape = queryShapesOf('find', { find: 'conversations', filter: { ...conversationListQuery({ tagIds: ['t1'], inboxStatus: 'pending' }, {}), business_id: 'b' }, sort: { sort_at: -1, _id: -1 } })[0]!;
    expect(judgeQueryShape(shape, unfilteredOnly).served).toBe(false);
    expect(judgeQueryShape(shape, indexes).served).toBe(true);
  });
});
