import { customerNameOf } from './message-author';

describe('customerNameOf', () => {
  it('is the contact name, else its platform profile name, else null', () => {
    expect(customerNameOf({ name: 'Ana', profile_name: 'ana.p' })).toBe('Ana');
    expect(customerNameOf({ name: null, profile_name: 'ana.p' })).toBe('ana.p');
    expect(customerNameOf({ name: null, profile_name: null })).toBeNull();
    expect(customerNameOf(null)).toBeNull();
  });
});
