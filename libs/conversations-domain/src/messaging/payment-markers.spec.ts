import { CatalogError } from '@cmsg/errors';
import {
  type PaymentMarkerSource,
  type PaymentProfile,
  type PaymentValues,
  containsPaymentMarker,
  findPaymentMarkers,
  formatBankDetails,
  renderPaymentMarkers,
} from './payment-markers';

const open: PaymentValues = {
  uuid: '11111111-1111-4111-8111-111111111111',
  link: 'https://pay.example/p/abc',
  amount: '1250.00',
  currency: 'MXN',
  reference: 'INV-42',
  due_date: '2025-03-01',
};
const other: PaymentValues = {
  uuid: '22222222-2222-4222-8222-222222222222',
  link: 'https://pay.example/p/other',
  amount: '99.90',
  currency: 'USD',
  reference: null,
  due_date: null,
};
const profile: PaymentProfile = { bank_name: 'Banco Uno', account_holder: 'ACME SA de CV', clabe: '012345678901234567', instructions: 'Use the reference.' };

function source(overrides: { latest?: PaymentValues | null; payments?: PaymentValues[]; profile?: PaymentProfile | null } = {}) {
  const calls = { latest: 0, byUuid: [] as string[], profile: 0 };
  const payments = overrides.payments ?? [open, other];
  const marker: PaymentMarkerSource = {
    latestOpenPayment: async () => {
      calls.latest += 1;
      return overrides.latest === undefined ? open : overrides.latest;
    },
    paymentByUuid: async (uuid) => {
      calls.byUuid.push(uuid);
      return payments.find((payment) => payment.uuid === uuid) ?? null;
    },
    paymentProfile: async () => {
      calls.profile += 1;
      return overrides.profile === undefined ? profile : overrides.profile;
    },
  };
  return { marker, calls };
}

async function failure(promise: Promise<unknown>): Promise<CatalogError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CatalogError);
  return error as CatalogError;
}

describe('findPaymentMarkers', () => {
  it('finds every marker in order, with and without a payment uuid', () => {
    expect(findPaymentMarkers(`Pay [[payment.amount]] [[payment.currency]] at [[payment.link:${other.uuid}]].`)).toEqual([
      { raw: '[[payment.amount]]', field: 'amount', paymentUuid: undefined },
      { raw: '[[payment.currency]]', field: 'currency', paymentUuid: undefined },
      { raw: `[[payment.link:${other.uuid}]]`, field: 'link', paymentUuid: other.uuid },
    ]);
  });

  it.each(['link', 'amount', 'currency', 'reference', 'due_date', 'bank_details'])('knows the field %s', (field) => {
    expect(findPaymentMarkers(`[[payment.${field}]]`)).toEqual([{ raw: `[[payment.${field}]]`, field, paymentUuid: undefined }]);
  });

  it('is lenient about case and the spaces inside the brackets', () => {
    expect(findPaymentMarkers('[[ Payment.LINK ]] [[payment.amount : ABC]]').map(({ field, paymentUuid }) => [field, paymentUuid])).toEqual([
      ['link', undefined],
      ['amount', 'abc'],
    ]);
  });

  it.each(['[[payment.iban]]', '[[payment.]]', '[[payment.link:]]', '[[payment.link:a:b]]', '[[payment.due date]]', '[[payment.link-url]]'])(
    '%s is PAYMENT_MARKER_UNKNOWN',
    (text) => {
      expect(() => findPaymentMarkers(`Hello ${text}`)).toThrow(expect.objectContaining({ code: 'PAYMENT_MARKER_UNKNOWN' }));
    },
  );

  it.each(['no markers at all', '[payment.link]', '[[paymentlink]]', '{{payment.link}}', '[[invoice.link]]', '[[payment.link]'])('ignores %s', (text) => {
    expect(findPaymentMarkers(text)).toEqual([]);
  });
});

describe('containsPaymentMarker', () => {
  it.each([
    ['[[payment.link]]', true],
    ['x [[payment.unknown_field]] y', true],
    ['[[ PAYMENT.amount ]]', true],
    ['plain', false],
    ['[[other.link]]', false],
  ])('%s -> %s', (text, expected) => {
    expect(containsPaymentMarker(text)).toBe(expected);
    // No state kept between calls (a global regex would alternate).
    expect(containsPaymentMarker(text)).toBe(expected);
  });
});

describe('renderPaymentMarkers', () => {
  it('returns the texts untouched, without any lookup, when there is no marker', async () => {
    const { marker, calls } = source();
    await expect(renderPaymentMarkers(['hello', 'world'], marker)).resolves.toEqual(['hello', 'world']);
    expect(calls).toEqual({ latest: 0, byUuid: [], profile: 0 });
  });

  it("replaces fields from the conversation's latest open payment, looked up once", async () => {
    const { marker, calls } = source();
    const [text] = await renderPaymentMarkers(
      ['Total [[payment.amount]] [[payment.currency]], ref [[payment.reference]], due [[payment.due_date]]: [[payment.link]] ([[payment.amount]])'],
      marker,
    );
    expect(text).toBe('Total 1250.00 MXN, ref INV-42, due 2025-03-01: https://pay.example/p/abc (1250.00)');
    expect(calls.latest).toBe(1);
  });

  it('replaces a marker with a uuid from that payment', async () => {
    const { marker, calls } = source();
    const [text] = await renderPaymentMarkers([`[[payment.amount:${other.uuid}]] [[payment.currency:${other.uuid}]] vs [[payment.amount]]`], marker);
    expect(text).toBe('99.90 USD vs 1250.00');
    expect(calls.byUuid).toEqual([other.uuid]);
  });

  it('renders several texts (the actions of a quick reply) with shared lookups', async () => {
    const { marker, calls } = source();
    await expect(renderPaymentMarkers(['First: [[payment.link]]', 'no marker', 'Again [[payment.link]]'], marker)).resolves.toEqual([
      'First: https://pay.example/p/abc',
      'no marker',
      'Again https://pay.example/p/abc',
    ]);
    expect(calls.latest).toBe(1);
  });

  it('refuses everything for an unknown field anywhere, before any lookup', async () => {
    const { marker, calls } = source();
    const error = await failure(renderPaymentMarkers(['[[payment.link]]', 'then [[payment.tax]]'], marker));
    expect(error.code).toBe('PAYMENT_MARKER_UNKNOWN');
    expect(error.message).toContain('[[payment.tax]]');
    expect(calls).toEqual({ latest: 0, byUuid: [], profile: 0 });
  });

  it('is PAYMENT_MARKER_DATA_UNAVAILABLE without an open payment', async () => {
    const error = await failure(renderPaymentMarkers(['[[payment.link]]'], source({ latest: null }).marker));
    expect(error.code).toBe('PAYMENT_MARKER_DATA_UNAVAILABLE');
  });

  it.each(['reference', 'due_date'])('is PAYMENT_MARKER_DATA_UNAVAILABLE when the payment has no %s', async (field) => {
    const error = await failure(renderPaymentMarkers([`[[payment.${field}:${other.uuid}]]`], source().marker));
    expect(error.code).toBe('PAYMENT_MARKER_DATA_UNAVAILABLE');
    expect(error.message).toContain(field);
  });

  it('treats a blank value as unavailable', async () => {
    const error = await failure(renderPaymentMarkers(['[[payment.link]]'], source({ latest: { ...open, link: '   ' } }).marker));
    expect(error.code).toBe('PAYMENT_MARKER_DATA_UNAVAILABLE');
  });

  it('is PAYMENT_NOT_FOUND for a uuid that names no payment of the conversation', async () => {
    const error = await failure(renderPaymentMarkers(['[[payment.link:33333333-3333-4333-8333-333333333333]]'], source().marker));
    expect(error.code).toBe('PAYMENT_NOT_FOUND');
  });

  it('builds bank_details from the payment profile, without needing an open payment', async () => {
    const { marker, calls } = source({ latest: null });
    const [text] = await renderPaymentMarkers(['Transfer to:\n[[payment.bank_details]]'], marker);
    expect(text).toBe('Transfer to:\nBank: Banco Uno\nAccount holder: ACME SA de CV\nCLABE: 012345678901234567\nUse the reference.');
    expect(calls.latest).toBe(0);
  });

  it('still checks the uuid of a bank_details marker', async () => {
    const error = await failure(renderPaymentMarkers(['[[payment.bank_details:33333333-3333-4333-8333-333333333333]]'], source().marker));
    expect(error.code).toBe('PAYMENT_NOT_FOUND');
  });

  it('is PAYMENT_PROFILE_GENERATION_FAILED without a usable profile', async () => {
    const error = await failure(renderPaymentMarkers(['[[payment.bank_details]]'], source({ profile: null }).marker));
    expect(error.code).toBe('PAYMENT_PROFILE_GENERATION_FAILED');
  });

  it('leaves text that only looks similar alone', async () => {
    await expect(renderPaymentMarkers(['[payment.link] and [[payment.link]]'], source().marker)).resolves.toEqual([
      '[payment.link] and https://pay.example/p/abc',
    ]);
  });
});

describe('formatBankDetails', () => {
  it('lists the present fields in a fixed order, then the instructions', () => {
    expect(
      formatBankDetails({ bank_name: 'B', account_holder: 'H', account_number: '123', clabe: '012345678901234567', iban: 'DE00', swift: 'SWFT', instructions: 'Thanks' }),
    ).toBe('Bank: B\nAccount holder: H\nAccount number: 123\nCLABE: 012345678901234567\nIBAN: DE00\nSWIFT: SWFT\nThanks');
    expect(formatBankDetails({ bank_name: 'B', account_holder: 'H', iban: 'DE00', swift: '  ' })).toBe('Bank: B\nAccount holder: H\nIBAN: DE00');
  });

  it.each<[string, PaymentProfile | null, string]>([
    ['no profile', null, 'no payment profile'],
    ['no bank name', { account_holder: 'H', clabe: '1' }, 'lacks bank_name'],
    ['no holder', { bank_name: 'B', clabe: '1' }, 'lacks account_holder'],
    ['no account identifier', { bank_name: 'B', account_holder: 'H', swift: 'S' }, 'no account number, CLABE or IBAN'],
  ])('fails with %s', (_case, given, why) => {
    expect(() => formatBankDetails(given)).toThrow(expect.objectContaining({ code: 'PAYMENT_PROFILE_GENERATION_FAILED', message: expect.stringContaining(why) }));
  });
});
