import { timelineTextOf } from './timeline-message-text';

describe('timelineTextOf', () => {
  it('is the text of a text message', () => {
    expect(timelineTextOf({ body: 'Hola', content_type: 'text' })).toBe('Hola');
  });

  it('adds the description of an image to its caption, labelled', () => {
    expect(timelineTextOf({ body: 'mi recibo', content_type: 'image', transcription: 'A receipt for 250 MXN.' })).toBe('mi recibo\n[Image description: A receipt for 250 MXN.]');
    expect(timelineTextOf({ body: '', content_type: 'image', transcription: 'A red car.' })).toBe('[Image description: A red car.]');
  });

  it('gives the transcript of a voice note and the text of a document', () => {
    expect(timelineTextOf({ body: '', content_type: 'audio', transcription: 'Quiero cambiar mi cita al martes' })).toBe('[Audio transcription: Quiero cambiar mi cita al martes]');
    expect(timelineTextOf({ body: null, content_type: 'document', transcription: 'Invoice 42' })).toBe('[Document text: Invoice 42]');
  });

  it('names media still awaiting a transcription, with its caption', () => {
    expect(timelineTextOf({ body: '', content_type: 'video', transcription: null })).toBe('[video, not transcribed]');
    expect(timelineTextOf({ body: 'mira esto', content_type: 'image' })).toBe('[image, not transcribed] mira esto');
  });

  it('names other messages without text by their type', () => {
    expect(timelineTextOf({ body: '', content_type: 'location' })).toBe('[location]');
    expect(timelineTextOf({ body: 'Sí, confirmo', content_type: 'interactive' })).toBe('Sí, confirmo');
  });
});
