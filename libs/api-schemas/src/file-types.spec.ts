import { ALLOWED_MIME_TYPES, type FileCategory, categoryOf, declaredMimeTypePattern } from './file-types';

describe('declaredMimeTypePattern', () => {
  const declared = [' Text/Plain; charset=UTF-8', 'IMAGE/JPEG', 'image/png', 'video/3gpp ;codecs=x', '\tapplication/PDF', 'audio/ogg;'];
  const refused = ['image/gif', 'application/zip', 'text/html', '', 'image/jpeg2', 'xtext/plain', 'text/plain x', 'image/jpe', 'application/vnd-ms-excel', 'image/jpegs;'];

  it.each(declared)('matches exactly what normalizeMimeType allows: %j', (mimeType) => {
    expect(categoryOf(mimeType)).toBeDefined();
    expect(declaredMimeTypePattern().test(mimeType)).toBe(true);
  });

  it.each(refused)('refuses what normalizeMimeType does not allow: %j', (mimeType) => {
    expect(categoryOf(mimeType)).toBeUndefined();
    expect(declaredMimeTypePattern().test(mimeType)).toBe(false);
  });

  it('matches each allowed type in its own category only', () => {
    const categories: FileCategory[] = ['image', 'video', 'audio', 'document', 'text'];
    for (const [type, category] of Object.entries(ALLOWED_MIME_TYPES)) {
      for (const other of categories) expect({ type, other, matches: declaredMimeTypePattern(other).test(type.toUpperCase()) }).toEqual({ type, other, matches: other === category });
    }
  });
});
