export { ATTRIBUTE_KEY_PATTERN, ATTRIBUTE_TYPES, validateAttributeDefinition } from './attribute-definition';
export type { AttributeDefinition, AttributeDefinitionInput, AttributeType, AttributeValue } from './attribute-definition';
export { validateAttributeValues } from './attribute-values';
export type { AttributeWrite } from './attribute-values';
export { compileContactFilter } from './compile-contact-filter';
export { CONTACT_FIELDS, FILTER_OPS } from './contact-filter';
export type {
  AttributeField,
  ContactField,
  ContactFilter,
  FilterCondition,
  FilterField,
  FilterOp,
  FilterScalar,
  GroupCombinator,
  NestedFilterGroup,
} from './contact-filter';
export { attributeKeysOf, contactFilterKey } from './contact-filter-key';
export {
  MAX_ATTRIBUTE_DEFINITIONS,
  MAX_FILTER_CONDITIONS,
  MAX_FILTER_DEPTH,
  MAX_IN_VALUES,
  MAX_LIST_OPTIONS,
  MAX_TEXT_ATTRIBUTE_LENGTH,
} from './limits';
export { parseContactFilter } from './parse-contact-filter';
export { foldText, phoneDigits } from './text-keys';
