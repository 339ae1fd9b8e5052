import { contentDisposition } from './file-transfer.routes';

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition('menú "otoño" (2025).pdf')).toBe(`inline; filename="men_ _oto_o_ (2025).pdf"; filename*=UTF-8''men%C3%BA%20%22oto%C3%B1o%22%20%282025%29.pdf`);
    expect(contentDisposition('plain.txt')).toBe(`inline; filename="plain.txt"; filename*=UTF-8''plain.txt`);
  });
});
