import { isEscalatingCode } from './failure-policy';

describe('escalation on error (SPEC 4.3 rule 6)', () => {
  it('escalates a send the chat platform failed for its own reasons', () => {
    expect(isEscalatingCode('SEND_FAILED')).toBe(true);
  });

  // CONTRACT 10.3: these come from the recipient or the business's standing with the platform; a
  // human taking over the conversation cannot deliver the message either.
  it.each(['WINDOW_CLOSED', 'RECIPIENT_UNDELIVERABLE', 'MARKETING_LIMIT_REACHED', 'CONTACT_OPTED_OUT', 'RECIPIENT_IN_EXPERIMENT'])(
    'never escalates the provider outcome %s',
    (code) => {
      expect(isEscalatingCode(code)).toBe(false);
    },
  );
});
