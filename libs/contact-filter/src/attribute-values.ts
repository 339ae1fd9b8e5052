import { CatalogError } from '@cmsg/errors';
import type { AttributeDefinition, AttributeValue } from './attribute-definition';
import { isIsoDate } from './calendar-date';
import { invalidRequest } from './invalid-request';
import { MAX_TEXT_ATTRIBUTE_LENGTH } from './limits';

export interface AttributeWrite {
  set: { k: string; v: AttributeValue }[];
  unset: string[];
}

/**
 * The attribute values of a write (REST, seed file, broadcast file rows) against the business's
 * definitions (CONTRACT 10.1). `null` removes the key (JSON Merge Patch). A key with no definition
 * is ATTRIBUTE_UNDEFINED even with `null`, so a misspelt key is reported instead of silently
 * removing nothing.
 */
export function validateAttributeValues(definitions: readonly AttributeDefinition[], values: Record<string, unknown>): AttributeWrite {
  if (typeof values !== 'object' || values === null || Array.isArray(values)) throw invalidRequest('attributes', 'must be an object');
  const byKey = new Map(definitions.map((definition) => [definition.key, definition]));
  const write: AttributeWrite = { set: [], unset: [] };
  for (const [key, value] of Object.entries(values)) {
    const definition = byKey.get(key);
    if (definition === undefined) throw new CatalogError('ATTRIBUTE_UNDEFINED', `No contact attribute is defined with the key ${JSON.stringify(key)}.`);
    if (value === null) write.unset.push(key);
    else write.set.push({ k: key, v: attributeValue(definition, value) });
  }
  return write;
}

function attributeValue(definition: AttributeDefinition, value: unknown): AttributeValue {
  const path = `attributes.${definition.key}`;
  switch (definition.type) {
    case 'text':
      if (typeof value !== 'string') throw invalidRequest(path, 'must be a string (text attribute)');
      if ([...value].length > MAX_TEXT_ATTRIBUTE_LENGTH) throw invalidRequest(path, `must be at most ${MAX_TEXT_ATTRIBUTE_LENGTH} characters`);
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidRequest(path, 'must be a finite number (number attribute)');
      // -0 and 0 are one value to a reader; one stored form keeps equality and the cursor key simple.
      return value === 0 ? 0 : value;
    case 'boolean':
      if (typeof value !== 'boolean') throw invalidRequest(path, 'must be true or false (boolean attribute)');
      return value;
    case 'date':
      if (typeof value !== 'string' || !isIsoDate(value)) throw invalidRequest(path, 'must be a real date written YYYY-MM-DD (date attribute)');
      return value;
    case 'list':
      if (typeof value !== 'string' || !definition.options.includes(value)) {
        throw invalidRequest(path, `must be one of ${definition.options.map((option) => JSON.stringify(option)).join(', ')} (list attribute)`);
      }
      return value;
  }
}
