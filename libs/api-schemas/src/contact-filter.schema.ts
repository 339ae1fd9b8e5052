import { CONTACT_FIELDS, FILTER_OPS, MAX_FILTER_CONDITIONS, MAX_IN_VALUES } from '@cmsg/contact-filter';
import { z } from './zod';

/*
 * The structure of CONTRACT 10.1's filter language, for validation of the request shape and for
 * the OpenAPI document. What a field takes (its ops, its value types, defined attributes, the count
 * of conditions across groups) depends on the business's attribute definitions, so
 * @cmsg/contact-filter's parseContactFilter checks it after this schema, naming the offending path.
 * Objects are strict: a group with both `and` and `or`, or a misspelt member, is refused rather
 * than dropped, since dropping would widen an audience silently. Written without recursion: groups
 * nest 2 levels at most.
 */

export const ContactFilterOpSchema = z.enum(FILTER_OPS).openapi('ContactFilterOp', {
  description: `\`in\` and \`nin\` take an array of 1 to ${MAX_IN_VALUES} values; \`exists\` takes true or false; the others one value.`,
});

export const ContactFilterConditionSchema = z
  .strictObject({
    field: z
      .string()
      .min(1)
      .openapi({ description: `One of ${CONTACT_FIELDS.map((field) => `\`${field}\``).join(', ')}, or \`attributes.<key>\` of a defined contact attribute.`, example: 'attributes.plan' }),
    op: ContactFilterOpSchema,
    value: z
      .unknown()
      .nonoptional()
      .openapi({ description: 'Its type follows the field and op: a string, number, boolean, RFC 3339 date-time, YYYY-MM-DD date, or an array of them.', example: 'gold' }),
  })
  .openapi('ContactFilterCondition', {
    description: [
      'A condition on one field. Ops per field:',
      '`first_name`, `last_name`, `email`: eq, neq, in, nin, starts_with, exists; case- and accent-insensitive.',
      '`phone`: the same ops, compared on its digits (`+52 (55)` is the prefix `5255`).',
      '`external_id`: the same ops, exact and case-sensitive.',
      '`tag` (a tag uuid on the contact’s conversation): eq, neq, in, nin, exists (has any tag).',
      '`inbox_status` (`pending`, `resolved`), `consent.marketing`, `consent.utility` (`opted_in`, `opted_out`, `unknown`): eq, neq, in, nin.',
      '`created_at`, `updated_at`, `last_inbound_at` (RFC 3339 date-time with offset): eq, neq, gt, gte, lt, lte, and exists for `last_inbound_at`.',
      '`attributes.<key>` by the attribute’s type: text: eq, neq, in, nin, starts_with (case-sensitive), gt, gte, lt, lte, exists; number: eq, neq, in, nin, gt, gte, lt, lte, exists; boolean: eq, neq, exists; date (YYYY-MM-DD): eq, neq, in, nin, gt, gte, lt, lte, exists; list (one of its options): eq, neq, in, nin, exists.',
      '`neq` and `nin` also match contacts without a value; a contact with no consent stored counts as `unknown`.',
    ].join(' '),
  });

const conditions = z.array(ContactFilterConditionSchema).min(1).max(MAX_FILTER_CONDITIONS);

// Named one by one: the OpenAPI generator flattens a union inside a union, dropping its name.
const NestedAndGroupSchema = z
  .strictObject({ and: conditions })
  .openapi('ContactFilterNestedAnd', { description: `A group inside the top group: all of 1 to ${MAX_FILTER_CONDITIONS} conditions (no deeper groups).` });

const NestedOrGroupSchema = z
  .strictObject({ or: conditions })
  .openapi('ContactFilterNestedOr', { description: `A group inside the top group: any of 1 to ${MAX_FILTER_CONDITIONS} conditions (no deeper groups).` });

export const ContactFilterNestedGroupSchema = z.union([NestedAndGroupSchema, NestedOrGroupSchema]);

const members = z.array(z.union([ContactFilterConditionSchema, ContactFilterNestedGroupSchema])).min(1).max(MAX_FILTER_CONDITIONS);

export const ContactFilterSchema = z.union([z.strictObject({ and: members }), z.strictObject({ or: members })]).openapi('ContactFilter', {
  description: `Exactly one of \`and\` or \`or\`: 1 to ${MAX_FILTER_CONDITIONS} conditions or nested groups, at most 2 levels and ${MAX_FILTER_CONDITIONS} conditions in all. A wrong field, op or value type, or an undefined attribute, is 400 INVALID_REQUEST naming its path (\`filter.and[2].or[0].op\`).`,
  example: {
    and: [
      { field: 'attributes.plan', op: 'eq', value: 'gold' },
      { field: 'tag', op: 'eq', value: '3f2b8c1e-6a4d-4e0b-9c7a-1d2e3f4a5b6c' },
    ],
  },
});

export type ContactFilterCondition = z.infer<typeof ContactFilterConditionSchema>;
export type ContactFilterInput = z.infer<typeof ContactFilterSchema>;
