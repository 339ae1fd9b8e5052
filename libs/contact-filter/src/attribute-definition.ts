import { invalidRequest } from './invalid-request';
import { MAX_LIST_OPTIONS, MAX_TEXT_ATTRIBUTE_LENGTH } from './limits';

export const ATTRIBUTE_TYPES = ['text', 'number', 'boolean', 'date', 'list'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

/** `options` holds a list's allowed values; empty for every other type. */
export interface AttributeDefinition {
  key: string;
  type: AttributeType;
  options: readonly string[];
}

/** What a stored `attributes[].v` holds: text, list and date (YYYY-MM-DD) as strings. */
export type AttributeValue = string | number | boolean;

export const ATTRIBUTE_KEY_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;

export interface AttributeDefinitionInput {
  key: string;
  type: AttributeType;
  options?: readonly string[];
}

/**
 * A definition's rules beyond its JSON shape (CONTRACT 10.1). A list's options are the only values
 * its attribute takes, so each must be a value a text could hold, and two equal options would make
 * a filter `in` ambiguous to read.
 */
export function validateAttributeDefinition(input: AttributeDefinitionInput): AttributeDefinition {
  const { key, type, options } = input;
  if (typeof key !== 'string' || !ATTRIBUTE_KEY_PATTERN.test(key)) {
    throw invalidRequest('key', `${JSON.stringify(key)} must match ${ATTRIBUTE_KEY_PATTERN.source}`);
  }
  if (!(ATTRIBUTE_TYPES as readonly string[]).includes(type)) {
    throw invalidRequest('type', `attribute ${key}: type must be one of ${ATTRIBUTE_TYPES.join(', ')}`);
  }
  if (type !== 'list') {
    if (options !== undefined) throw invalidRequest('options', `attribute ${key}: options apply to a list attribute only`);
    return { key, type, options: [] };
  }
  return { key, type, options: validListOptions(key, options) };
}

function validListOptions(key: string, options: readonly string[] | undefined): string[] {
  if (!Array.isArray(options) || options.length < 1 || options.length > MAX_LIST_OPTIONS) {
    throw invalidRequest('options', `attribute ${key}: a list needs 1 to ${MAX_LIST_OPTIONS} options`);
  }
  options.forEach((option, index) => {
    if (typeof option !== 'string' || option.trim() === '' || [...option].length > MAX_TEXT_ATTRIBUTE_LENGTH) {
      throw invalidRequest(`options[${index}]`, `attribute ${key}: each option must be a non-blank string of at most ${MAX_TEXT_ATTRIBUTE_LENGTH} characters`);
    }
    if (options.indexOf(option) !== index) throw invalidRequest(`options[${index}]`, `attribute ${key}: option ${JSON.stringify(option)} is listed twice`);
  });
  return [...options];
}
