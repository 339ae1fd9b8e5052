/** The parsed form of CONTRACT 10.1's filter language: checked, values normalised to what is stored. */

export const FILTER_OPS = ['eq', 'neq', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'starts_with', 'exists'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

export const CONTACT_FIELDS = [
  'first_name',
  'last_name',
  'phone',
  'email',
  'external_id',
  'tag',
  'inbox_status',
  'consent.marketing',
  'consent.utility',
  'created_at',
  'updated_at',
  'last_inbound_at',
] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export const ATTRIBUTE_FIELD_PREFIX = 'attributes.';
export type AttributeField = `attributes.${string}`;
export type FilterField = ContactField | AttributeField;

/**
 * A value as the stored document holds it: folded names, phone digits, Dates for the contact's
 * instants, 'YYYY-MM-DD' strings for date attributes.
 */
export type FilterScalar = string | number | boolean | Date;

export type FilterCondition =
  | { readonly field: FilterField; readonly op: 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'starts_with'; readonly value: FilterScalar }
  | { readonly field: FilterField; readonly op: 'in' | 'nin'; readonly value: readonly FilterScalar[] }
  | { readonly field: FilterField; readonly op: 'exists'; readonly value: boolean };

export type GroupCombinator = 'and' | 'or';

/** A group nested in the top group: conditions only (MAX_FILTER_DEPTH). */
export interface NestedFilterGroup {
  readonly combinator: GroupCombinator;
  readonly members: readonly FilterCondition[];
}

export interface ContactFilter {
  readonly combinator: GroupCombinator;
  readonly members: readonly (FilterCondition | NestedFilterGroup)[];
}

export function isFilterGroup(member: FilterCondition | NestedFilterGroup): member is NestedFilterGroup {
  return 'combinator' in member;
}

export function isAttributeField(field: FilterField): field is AttributeField {
  return field.startsWith(ATTRIBUTE_FIELD_PREFIX);
}

export function attributeKeyOf(field: AttributeField): string {
  return field.slice(ATTRIBUTE_FIELD_PREFIX.length);
}
