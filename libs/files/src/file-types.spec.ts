import { AUDIENCE_FILE_CATEGORY, FILE_SIZE_CAPS, UPLOAD_FILE_MODULES, categoryOf, checkDeclaredFile, defaultFileName, isUploadModule, normalizeMimeType } from './file-types';

const MIB = 1024 * 1024;

describe('checkDeclaredFile', () => {
  it.each([
    ['image/jpeg', 'image', 5 * MIB],
    ['image/webp', 'image', 5 * MIB],
    ['video/3gpp', 'video', 16 * MIB],
    ['audio/ogg', 'audio', 16 * MIB],
    ['audio/amr', 'audio', 16 * MIB],
    ['application/pdf', 'document', 100 * MIB],
    ['application/vnd.ms-powerpoint', 'document', 100 * MIB],
    ['text/plain', 'text', 5 * MIB],
  ])('%s is a %s of at most %i bytes', (mimeType, category, cap) => {
    expect(checkDeclaredFile(mimeType, cap)).toEqual({ mimeType, category });
    expect(() => checkDeclaredFile(mimeType, cap + 1)).toThrow(expect.objectContaining({ code: 'FILE_TOO_LARGE' }));
  });

  it('normalises case and parameters', () => {
    expect(normalizeMimeType(' Text/Plain; charset=UTF-8')).toBe('text/plain');
    expect(checkDeclaredFile('IMAGE/PNG', 10)).toEqual({ mimeType: 'image/png', category: 'image' });
  });

  it.each(['image/gif', 'application/zip', 'video/quicktime', 'application/octet-stream', 'text/html', ''])('refuses %j: INVALID_FILE_TYPE', (mimeType) => {
    expect(() => checkDeclaredFile(mimeType, 10)).toThrow(expect.objectContaining({ code: 'INVALID_FILE_TYPE', httpStatus: 400 }));
  });

  it('names a category for every cap', () => {
    expect(Object.keys(FILE_SIZE_CAPS).sort()).toEqual(['audio', 'document', 'image', 'text', 'video']);
    expect(categoryOf('audio/mpeg')).toBe('audio');
    expect(categoryOf('image/gif')).toBeUndefined();
  });

  it('gives media without a name one with the right extension', () => {
    expect(defaultFileName('voice', 'audio/ogg; codecs=opus')).toBe('voice.ogg');
    expect(defaultFileName('x', 'application/x-unknown')).toBe('x.bin');
  });
});

describe('checkDeclaredFile for module broadcast_audiences', () => {
  it.each(['text/csv', 'application/x-ndjson', 'Text/CSV; charset=utf-8'])('takes %j up to 100 MiB', (mimeType) => {
    expect(checkDeclaredFile(mimeType, 100 * MIB, 'broadcast_audiences')).toEqual({ mimeType: normalizeMimeType(mimeType), category: AUDIENCE_FILE_CATEGORY });
    expect(() => checkDeclaredFile(mimeType, 100 * MIB + 1, 'broadcast_audiences')).toThrow(expect.objectContaining({ code: 'FILE_TOO_LARGE', httpStatus: 400 }));
  });

  it.each(['image/jpeg', 'text/plain', 'application/pdf', 'application/json'])('refuses %j: INVALID_FILE_TYPE', (mimeType) => {
    expect(() => checkDeclaredFile(mimeType, 10, 'broadcast_audiences')).toThrow(expect.objectContaining({ code: 'INVALID_FILE_TYPE', httpStatus: 400 }));
  });

  it('keeps the api_messages list as it was: no CSV or NDJSON there', () => {
    expect(() => checkDeclaredFile('text/csv', 10, 'api_messages')).toThrow(expect.objectContaining({ code: 'INVALID_FILE_TYPE' }));
    expect(() => checkDeclaredFile('application/x-ndjson', 10)).toThrow(expect.objectContaining({ code: 'INVALID_FILE_TYPE' }));
    expect(checkDeclaredFile('text/plain', 10, 'api_messages')).toEqual({ mimeType: 'text/plain', category: 'text' });
  });

  it('knows the upload modules (inbound_media is not one)', () => {
    expect(UPLOAD_FILE_MODULES).toEqual(['api_messages', 'broadcast_audiences']);
    expect(isUploadModule('broadcast_audiences')).toBe(true);
    expect(isUploadModule('inbound_media')).toBe(false);
  });
});
