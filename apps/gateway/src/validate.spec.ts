import { requestUploadEndpoint, unassignAiEndpoint } from '@cmsg/api-schemas';
import type { Request } from 'express';
import { parseEndpointInput } from './validate';

const requestWithBody = (body: unknown) => ({ params: {}, query: {}, body }) as unknown as Request;
const conversation = { uuid: '5a3c1a6e-5a0e-4f6a-9c43-2f4b8f0d2a11' };

describe('parseEndpointInput', () => {
  it('answers INVALID_REQUEST naming every offending field', () => {
    expect(() => parseEndpointInput(unassignAiEndpoint, requestWithBody({ conversation: {} }))).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', message: expect.stringContaining('conversation') }),
    );
  });

  it('answers a rule that carries its own catalog code with that code', () => {
    expect(() => parseEndpointInput(unassignAiEndpoint, requestWithBody({ conversation, scheduled_message_action: 'keep' }))).toThrow(
      expect.objectContaining({ code: 'SCHEDULED_MESSAGE_ACTION_INVALID', message: expect.stringContaining('scheduled_message_action') }),
    );
    const upload = { module: 'api_messages', file_name: 'a.gif' };
    expect(() => parseEndpointInput(requestUploadEndpoint, requestWithBody({ ...upload, mime_type: 'image/gif', size: 10 }))).toThrow(
      expect.objectContaining({ code: 'INVALID_FILE_TYPE' }),
    );
    expect(() => parseEndpointInput(requestUploadEndpoint, requestWithBody({ ...upload, mime_type: 'Image/PNG; q=1', size: 5 * 1024 * 1024 + 1 }))).toThrow(
      expect.objectContaining({ code: 'FILE_TOO_LARGE' }),
    );
    expect(parseEndpointInput(requestUploadEndpoint, requestWithBody({ ...upload, mime_type: 'Image/PNG; q=1', size: 5 * 1024 * 1024 })).body).toMatchObject({ size: 5 * 1024 * 1024 });
  });

  it('prefers the specific code when a generic problem comes with it', () => {
    expect(() => parseEndpointInput(unassignAiEndpoint, requestWithBody({ conversation: {}, scheduled_message_action: '' }))).toThrow(
      expect.objectContaining({ code: 'SCHEDULED_MESSAGE_ACTION_INVALID' }),
    );
  });
});
