import { foldPrefix, foldText, phoneDigits } from './text-keys';

describe('foldText', () => {
  it.each([
    ['ÁLVARO ', 'alvaro'],
    ['  José María  ', 'jose maria'],
    ['Ana.Pérez@Example.COM', 'ana.perez@example.com'],
    ['Çağla Øre', 'cagla øre'],
    ['İlker', 'ilker'],
    ['Ｍａｒｉａ', 'maria'],
    ['ﬁona', 'fiona'],
    ['Nguyễn', 'nguyen'],
    ['straße', 'straße'],
    ['\u00a0Zoë\t', 'zoe'],
    ['', ''],
    ['   ', ''],
  ])('%j -> %j', (text, folded) => {
    expect(foldText(text)).toBe(folded);
  });

  it('is idempotent', () => {
    for (const text of ['ÁLVARO ', 'İlker', 'Ｍａｒｉａ', 'Nguyễn']) expect(foldText(foldText(text))).toBe(foldText(text));
  });
});

describe('foldPrefix', () => {
  it('folds like foldText but keeps trailing spaces, which narrow a prefix', () => {
    expect(foldPrefix('  ÁNA ')).toBe('ana ');
    expect(foldPrefix('Jo')).toBe('jo');
  });
});

describe('phoneDigits', () => {
  it.each([
    ['+52 1 (55) 1234-5678', '5215512345678'],
    ['5215512345678', '5215512345678'],
    ['+1.415.555.0100 ext', '14155550100'],
    ['no digits', ''],
    ['', ''],
  ])('%j -> %j', (text, digits) => {
    expect(phoneDigits(text)).toBe(digits);
  });
});
