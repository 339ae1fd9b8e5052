import { fullName } from './contact-names';

describe('fullName', () => {
  it('joins the present parts in order', () => {
    expect(fullName({ first_name: 'Ana', middle_name: null, last_name: 'López', second_last_name: 'Ruiz' })).toBe('Ana López Ruiz');
  });
  it('is undefined without any part', () => {
    expect(fullName({ first_name: ' ', last_name: null })).toBeUndefined();
  });
});
