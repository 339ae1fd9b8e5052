import { AddNoteRequestSchema } from './notes.schema';

const conversation = { uuid: '3f2b8c1e-6a4d-4e0b-9c7a-1d2e3f4a5b6c' };

describe('AddNoteRequestSchema', () => {
  it.each([1, 5000])('accepts a note of %i characters', (length) => {
    expect(AddNoteRequestSchema.safeParse({ conversation, note: 'n'.repeat(length) }).success).toBe(true);
  });

  it.each([0, 5001])('rejects a note of %i characters', (length) => {
    const result = AddNoteRequestSchema.safeParse({ conversation, note: 'n'.repeat(length) });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['note']);
  });

  it('requires both the conversation and the note', () => {
    const result = AddNoteRequestSchema.safeParse({});
    expect(result.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['conversation', 'note']);
  });

  it('validates the reference inside', () => {
    const result = AddNoteRequestSchema.safeParse({ conversation: {}, note: 'hi' });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['conversation']);
  });

  it('drops unknown fields', () => {
    expect(AddNoteRequestSchema.parse({ conversation, note: 'hi', author: 'me' })).toEqual({ conversation, note: 'hi' });
  });
});
