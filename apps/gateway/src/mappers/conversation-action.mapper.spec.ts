import { CatalogError } from '@cmsg/errors';
import type { ChangeTagsResponse, TagChangeResult } from '@cmsg/proto';
import { StatusResponse } from '../routes/business-route';
import { toAiEmployeeAssignmentResponse, toAiUnassignmentResponse, toMailboxAssignmentResponse, toTagChangeOutcome } from './conversation-action.mapper';

const conversation = { uuid: '11111111-2222-4333-8444-555555555555' };
const vip = { uuid: '12121212-3434-4565-8787-909090909090', name: 'vip', color: '#ff0000' };
const lead = { uuid: '23232323-4545-4676-8989-010101010101', name: 'lead', color: '' };

const assigned = (tag = vip): TagChangeResult => ({ requested: { uuid: tag.uuid }, tag, status: 'assigned', error: undefined });
const failed = (code: string, requested: { uuid?: string; name?: string } = { name: 'nope' }, tag = undefined): TagChangeResult => ({
  requested,
  tag,
  status: 'failed',
  error: { code, message: `${code} happened` },
});
const response = (results: TagChangeResult[], tags = [vip]): ChangeTagsResponse => ({ conversation, tags, results });

describe('toTagChangeOutcome', () => {
  it('answers the plain 200 body when every tag succeeded', () => {
    expect(toTagChangeOutcome(response([assigned(vip), assigned(lead)], [vip, lead]))).toEqual({ conversation, tags: [vip, lead] });
  });

  it('answers 207 with one result per tag when some failed, absent fields as null', () => {
    const outcome = toTagChangeOutcome(response([assigned(vip), failed('TAG_NOT_FOUND')]));
    expect(outcome).toBeInstanceOf(StatusResponse);
    expect(outcome).toEqual(
      new StatusResponse(207, {
        conversation,
        tags: [vip],
        results: [
          { requested: { uuid: vip.uuid }, tag: vip, status: 'assigned', error: null },
          { requested: { name: 'nope' }, tag: null, status: 'failed', error: { code: 'TAG_NOT_FOUND', message: 'TAG_NOT_FOUND happened' } },
        ],
      }),
    );
  });

  it('throws the error itself when every tag failed for the same code', () => {
    const thrown = (() => {
      try {
        toTagChangeOutcome(response([failed('TAG_ALREADY_ASSIGNED'), failed('TAG_ALREADY_ASSIGNED', { uuid: lead.uuid })]));
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(CatalogError);
    expect(thrown).toMatchObject({ code: 'TAG_ALREADY_ASSIGNED', httpStatus: 409, message: 'TAG_ALREADY_ASSIGNED happened' });
  });

  it('answers 207 when every tag failed for different codes', () => {
    const outcome = toTagChangeOutcome(response([failed('TAG_NOT_FOUND'), failed('TAG_BUSINESS_MISMATCH', { uuid: lead.uuid })], []));
    expect(outcome).toMatchObject({ status: 207, body: { tags: [], results: [{ status: 'failed' }, { status: 'failed', error: { code: 'TAG_BUSINESS_MISMATCH' } }] } });
  });

  it('treats an unknown error code from upstream as a bug', () => {
    expect(() => toTagChangeOutcome(response([failed('NOT_A_CODE')]))).toThrow('unknown error code');
  });
});

describe('assignment mappers', () => {
  it('maps the mailbox assignment', () => {
    expect(toMailboxAssignmentResponse({ conversation, mailbox: { uuid: lead.uuid, name: 'Sales' }, noop: false })).toEqual({
      conversation,
      mailbox: { uuid: lead.uuid, name: 'Sales' },
    });
  });

  it.each([
    ['not asked for', null, null],
    ['started', { status: 'processing' } as const, { status: 'processing', error: null }],
    [
      'refused',
      { status: 'failed', error: new CatalogError('WINDOW_CLOSED') } as const,
      { status: 'failed', error: { code: 'WINDOW_CLOSED', message: new CatalogError('WINDOW_CLOSED').message } },
    ],
  ])('maps the AI assignment with a run %s', (_case, aiRun, expected) => {
    const assignment = { conversation, ai_employee: { uuid: vip.uuid, name: 'Max' }, noop: false };
    expect(toAiEmployeeAssignmentResponse({ assignment, aiRun })).toEqual({ conversation, ai_employee: { uuid: vip.uuid, name: 'Max' }, ai_run: expected });
  });

  it('maps the unassignment with ai_employee null', () => {
    expect(toAiUnassignmentResponse({ conversation, inbox_status: 'pending', noop: false })).toEqual({ conversation, ai_employee: null, inbox_status: 'pending' });
  });
});
