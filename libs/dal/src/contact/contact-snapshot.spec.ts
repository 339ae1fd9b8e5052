import { contactSnapshotOf, fullName } from './contact-snapshot';

describe('contact snapshot', () => {
  it('joins the present name parts in order', () => {
    expect(fullName({ first_name: 'Ana', middle_name: null, last_name: 'López', second_last_name: 'Ruiz' })).toBe('Ana López Ruiz');
    expect(fullName({ first_name: ' ', last_name: null })).toBeUndefined();
  });

  it('falls back to the profile name and keeps nulls for what is unknown', () => {
    expect(contactSnapshotOf({ profile_name: 'ana.l', chat_user_id: 'MX.1' })).toEqual({ name: 'ana.l', profile_name: 'ana.l', phone: null, chat_user_id: 'MX.1' });
    expect(contactSnapshotOf({ first_name: 'Ana', phone: '+521' })).toEqual({ name: 'Ana', profile_name: null, phone: '+521', chat_user_id: null });
  });
});
