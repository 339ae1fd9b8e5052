import { CatalogError } from '@cmsg/errors';
import { publicErrorOf } from './error-handler';

describe('publicErrorOf', () => {
  it('keeps a catalog error as it is', () => {
    const error = new CatalogError('RATE_LIMIT_EXCEEDED', undefined, { retryAfterSeconds: 7 });
    expect(publicErrorOf(error)).toBe(error);
  });

  it('hides anything else behind UNKNOWN_ERROR with the catalog message', () => {
    const hidden = publicErrorOf(new Error('connection string mongodb://secret@db'));
    expect(hidden.toBody()).toEqual({ code: 'UNKNOWN_ERROR', message: 'Unexpected error.' });
    expect(hidden.httpStatus).toBe(500);
  });

  it("turns Express' own client errors into INVALID_REQUEST with their status", () => {
    expect(publicErrorOf(Object.assign(new URIError('Failed to decode param'), { status: 400 }))).toMatchObject({ code: 'INVALID_REQUEST', httpStatus: 400 });
    expect(publicErrorOf(Object.assign(new Error('gone'), { statusCode: 404 }))).toMatchObject({ code: 'NOT_FOUND', httpStatus: 404 });
  });

  it('does not trust a 5xx status on a foreign error', () => {
    expect(publicErrorOf(Object.assign(new Error('x'), { status: 503 }))).toMatchObject({ code: 'UNKNOWN_ERROR', httpStatus: 500 });
  });
});
