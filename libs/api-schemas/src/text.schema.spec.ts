import { requiredText, wellFormedText } from './text.schema';

describe('text schemas', () => {
  const stored = ['Hola', 'a\u0000b', '\u200Fمرحبا\u200E', '😀 ✓', 'x'.repeat(64 * 1024), ' padded '];

  it.each(stored)('take a well-formed text exactly as sent: %j', (text) => {
    expect(requiredText().parse(text)).toBe(text);
    expect(wellFormedText().parse(text)).toBe(text);
  });

  it.each(['\uD800', 'a\uDC00b', 'end\uD83D', '\uDE00start'])('refuse an unpaired surrogate: %j', (text) => {
    expect(requiredText().safeParse(text).success).toBe(false);
    expect(wellFormedText().safeParse(text).success).toBe(false);
  });

  it.each(['', ' ', '\t\n', '\u00A0\u3000'])('refuse required text that is empty or whitespace only: %j', (text) => {
    const result = requiredText(10).safeParse(text);
    expect(result.error?.issues).toHaveLength(1);
    expect(wellFormedText().safeParse(text).success).toBe(true);
  });

  it('keeps the length limits', () => {
    expect(requiredText(3).safeParse('abcd').success).toBe(false);
    expect(wellFormedText(3).safeParse('abcd').success).toBe(false);
  });
});

describe('text patterns', () => {
  it('match a 1 MiB text ending in a lone surrogate in linear time (refused, no backtracking blow-up)', () => {
    const text = `x${' '.repeat(1024 * 1024)}\uD800`;
    expect(requiredText().safeParse(text).success).toBe(false);
  });
});
