import { MAX_TRANSCRIBABLE_BYTES, assertTranscriptionSupplied, canTranscribe, transcriptionKindOf } from './transcription-rule';

describe('transcription rule', () => {
  it.each([
    ['image/jpeg', 'vision'],
    ['image/webp', 'vision'],
    ['audio/ogg; codecs=opus', 'speech'],
    ['audio/mpeg', 'speech'],
    ['text/plain', 'text'],
    ['audio/amr', undefined],
    ['audio/aac', undefined],
    ['video/mp4', undefined],
    ['application/pdf', undefined],
  ])('%s is transcribed by %s', (mimeType, kind) => {
    expect(transcriptionKindOf(mimeType)).toBe(kind);
  });

  it('cannot transcribe media over 20 MB', () => {
    expect(canTranscribe({ mime_type: 'image/png', size: MAX_TRANSCRIBABLE_BYTES })).toBe(true);
    expect(canTranscribe({ mime_type: 'audio/ogg', size: MAX_TRANSCRIBABLE_BYTES + 1 })).toBe(false);
  });

  it('needs no supplied transcription for media it can transcribe', () => {
    expect(() => assertTranscriptionSupplied({ mime_type: 'image/jpeg', size: 1000 }, undefined, 'message_media')).not.toThrow();
  });

  it('needs a supplied transcription for an unsupported type: TRANSCRIPTION_REQUIRED / TEMPLATE_HEADER_TRANSCRIPTION_MISSING', () => {
    const video = { mime_type: 'video/mp4', size: 1000 };
    expect(() => assertTranscriptionSupplied(video, undefined, 'message_media')).toThrow(expect.objectContaining({ code: 'TRANSCRIPTION_REQUIRED', httpStatus: 422 }));
    expect(() => assertTranscriptionSupplied(video, '  ', 'message_media')).toThrow(expect.objectContaining({ code: 'TRANSCRIPTION_REQUIRED' }));
    expect(() => assertTranscriptionSupplied(video, null, 'template_header')).toThrow(expect.objectContaining({ code: 'TEMPLATE_HEADER_TRANSCRIPTION_MISSING', httpStatus: 422 }));
    expect(() => assertTranscriptionSupplied(video, 'A product demo video.', 'template_header')).not.toThrow();
  });

  it('needs a supplied transcription for media over 20 MB, whatever its type', () => {
    const big = { mime_type: 'audio/mpeg', size: MAX_TRANSCRIBABLE_BYTES + 1 };
    expect(() => assertTranscriptionSupplied(big, undefined, 'message_media')).toThrow(expect.objectContaining({ code: 'TRANSCRIPTION_REQUIRED', message: expect.stringContaining('over') }));
    expect(() => assertTranscriptionSupplied(big, 'Greeting from the owner.', 'message_media')).not.toThrow();
  });
});
