import { CatalogError } from '@cmsg/errors';

/*
 * Payment markers (CONTRACT 7b): `[[payment.<field>]]` or `[[payment.<field>:<payment uuid>]]` in a
 * message text is replaced by that value before sending. Matching is lenient about case and the
 * spaces inside the brackets (`[[ Payment.Link ]]` is a marker); anything that starts like a marker
 * must be a known one, so a typo blocks the whole message instead of reaching the customer.
 */

export const PAYMENT_MARKER_FIELDS = ['link', 'amount', 'currency', 'reference', 'due_date', 'bank_details'] as const;
export type PaymentMarkerField = (typeof PAYMENT_MARKER_FIELDS)[number];

/** A payment's values as the markers read them (the payments collection). */
export interface PaymentValues {
  uuid: string;
  link: string | null;
  amount: string | null;
  currency: string | null;
  reference: string | null;
  due_date: string | null;
}

/** The business's payment profile (business.payment_profile, seeded per CONTRACT 8). */
export interface PaymentProfile {
  bank_name?: string | null;
  account_holder?: string | null;
  account_number?: string | null;
  clabe?: string | null;
  iban?: string | null;
  swift?: string | null;
  instructions?: string | null;
}

/** Where marker values come from; loaded lazily, only for the markers a text holds. */
export interface PaymentMarkerSource {
  /** The conversation's latest open payment, or null. */
  latestOpenPayment(): Promise<PaymentValues | null>;
  /** A payment of this conversation by uuid, or null. */
  paymentByUuid(uuid: string): Promise<PaymentValues | null>;
  paymentProfile(): Promise<PaymentProfile | null>;
}

export interface PaymentMarker {
  /** The marker exactly as written. */
  raw: string;
  field: PaymentMarkerField;
  paymentUuid: string | undefined;
}

// `[[`, optional spaces, `payment.`, anything up to the closing `]]` (no nested brackets).
const MARKER_PATTERN = /\[\[\s*payment\.([^[\]]*?)\s*\]\]/gi;
const MARKER_BODY = /^([A-Za-z_]+)(?:\s*:\s*([^\s:]+))?$/;

/** True when the text holds anything marker-like (known or not): for fields where markers are not allowed. */
export function containsPaymentMarker(text: string): boolean {
  return new RegExp(MARKER_PATTERN.source, MARKER_PATTERN.flags).test(text);
}

/** Every marker of the text, in order; PAYMENT_MARKER_UNKNOWN for one outside the catalog. */
export function findPaymentMarkers(text: string): PaymentMarker[] {
  return [...text.matchAll(MARKER_PATTERN)].map((match) => parseMarker(match[0], match[1] ?? ''));
}

function parseMarker(raw: string, body: string): PaymentMarker {
  const parts = MARKER_BODY.exec(body.trim());
  const field = parts?.[1]?.toLowerCase();
  if (!parts || !isMarkerField(field)) {
    throw new CatalogError('PAYMENT_MARKER_UNKNOWN', `${raw} is not a payment marker; known fields: ${PAYMENT_MARKER_FIELDS.join(', ')}.`);
  }
  return { raw, field, paymentUuid: parts[2]?.toLowerCase() };
}

function isMarkerField(value: string | undefined): value is PaymentMarkerField {
  return (PAYMENT_MARKER_FIELDS as readonly string[]).includes(value ?? '');
}

/**
 * Replaces the markers of several texts (the parts of one send) with their values. Every text is
 * checked before any value is looked up, and any failure fails them all: a send is all or nothing.
 */
export async function renderPaymentMarkers(texts: readonly string[], source: PaymentMarkerSource): Promise<string[]> {
  const markersPerText = texts.map(findPaymentMarkers);
  if (markersPerText.every((markers) => markers.length === 0)) return [...texts];
  const values = new MarkerValues(source);
  const rendered: string[] = [];
  for (const [index, text] of texts.entries()) {
    const replacements = new Map<string, string>();
    for (const marker of markersPerText[index]!) replacements.set(marker.raw, await values.of(marker));
    rendered.push(text.replace(MARKER_PATTERN, (raw) => replacements.get(raw) ?? raw));
  }
  return rendered;
}

/** Looks each payment up once per send. */
class MarkerValues {
  private latestOpen: Promise<PaymentValues | null> | undefined;
  private readonly byUuid = new Map<string, Promise<PaymentValues | null>>();
  private profile: Promise<PaymentProfile | null> | undefined;

  constructor(private readonly source: PaymentMarkerSource) {}

  async of(marker: PaymentMarker): Promise<string> {
    const payment = await this.paymentOf(marker);
    if (marker.field === 'bank_details') {
      this.profile ??= this.source.paymentProfile();
      return formatBankDetails(await this.profile);
    }
    if (!payment) {
      throw new CatalogError('PAYMENT_MARKER_DATA_UNAVAILABLE', `${marker.raw}: the conversation has no open payment.`);
    }
    const value = payment[marker.field]?.trim();
    if (!value) throw new CatalogError('PAYMENT_MARKER_DATA_UNAVAILABLE', `${marker.raw}: payment ${payment.uuid} has no ${marker.field}.`);
    return value;
  }

  /**
   * The payment a marker names. bank_details reads the business profile, not a payment, so it needs
   * no open payment; a uuid given to it must still name a payment of the conversation.
   */
  private async paymentOf(marker: PaymentMarker): Promise<PaymentValues | null> {
    if (marker.paymentUuid !== undefined) {
      const uuid = marker.paymentUuid;
      if (!this.byUuid.has(uuid)) this.byUuid.set(uuid, this.source.paymentByUuid(uuid));
      const payment = await this.byUuid.get(uuid)!;
      if (!payment) throw new CatalogError('PAYMENT_NOT_FOUND', `${marker.raw}: no payment ${uuid} in this conversation.`);
      return payment;
    }
    if (marker.field === 'bank_details') return null;
    this.latestOpen ??= this.source.latestOpenPayment();
    return this.latestOpen;
  }
}

const BANK_DETAIL_LINES: readonly [keyof PaymentProfile, string][] = [
  ['bank_name', 'Bank'],
  ['account_holder', 'Account holder'],
  ['account_number', 'Account number'],
  ['clabe', 'CLABE'],
  ['iban', 'IBAN'],
  ['swift', 'SWIFT'],
];

/**
 * The bank transfer details as one block of lines. A profile without bank name, account holder or
 * any account identifier (account number, CLABE, IBAN) cannot tell the customer where to pay.
 */
export function formatBankDetails(profile: PaymentProfile | null): string {
  const value = (key: keyof PaymentProfile) => profile?.[key]?.trim() ?? '';
  const missing = (['bank_name', 'account_holder'] as const).filter((key) => !value(key));
  if (!profile || missing.length > 0 || !(value('account_number') || value('clabe') || value('iban'))) {
    const why = !profile
      ? 'the business has no payment profile'
      : missing.length > 0
        ? `the payment profile lacks ${missing.join(' and ')}`
        : 'the payment profile has no account number, CLABE or IBAN';
    throw new CatalogError('PAYMENT_PROFILE_GENERATION_FAILED', `Bank details cannot be generated: ${why}.`);
  }
  const lines = BANK_DETAIL_LINES.filter(([key]) => value(key)).map(([key, label]) => `${label}: ${value(key)}`);
  if (value('instructions')) lines.push(value('instructions'));
  return lines.join('\n');
}
