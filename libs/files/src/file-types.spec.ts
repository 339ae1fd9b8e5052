import { FILE_SIZE_CAPS, categoryOf, checkDeclaredFile, defaultFileName, normalizeMimeType } from './file-types';

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
