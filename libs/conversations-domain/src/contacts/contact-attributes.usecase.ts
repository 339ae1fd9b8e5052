import { type AttributeDefinition, type AttributeType, MAX_ATTRIBUTE_DEFINITIONS, validateAttributeDefinition } from '@cmsg/contact-filter';
import type { BusinessScope, StoredAttributeDefinition } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { ContactAttribute, ListContactAttributesResponse } from '@cmsg/proto';
import type { ContactPorts } from './contact-ports';

/** POST /contact-attributes (CONTRACT 10.1): at most 100 per business, a key once. */
export async function defineContactAttribute(
  ports: Pick<ContactPorts, 'attributeDefinitions' | 'clock'>,
  scope: BusinessScope,
  input: { key: string; type: string; options: readonly string[] },
): Promise<ContactAttribute> {
  const definition = validateAttributeDefinition({ key: input.key, type: input.type as AttributeType, options: input.type === 'list' || input.options.length > 0 ? input.options : undefined });
  const stored: StoredAttributeDefinition = { key: definition.key, type: definition.type, options: [...definition.options], created_at: ports.clock() };
  const outcome = await ports.attributeDefinitions.define(scope, stored, MAX_ATTRIBUTE_DEFINITIONS);
  switch (outcome) {
    case 'defined':
      return attributeView(stored);
    case 'already_defined':
      throw new CatalogError('ATTRIBUTE_ALREADY_DEFINED', `A contact attribute ${definition.key} is already defined.`);
    case 'limit_reached':
      throw new CatalogError('ATTRIBUTE_LIMIT_REACHED', `The business has ${MAX_ATTRIBUTE_DEFINITIONS} contact attribute definitions, the most it may have.`);
    case 'no_business':
      throw new CatalogError('FETCH_FAILED', 'The business no longer exists.');
  }
}

/** GET /contact-attributes: oldest first. */
export async function listContactAttributes(ports: Pick<ContactPorts, 'attributeDefinitions'>, scope: BusinessScope): Promise<ListContactAttributesResponse> {
  return { items: (await ports.attributeDefinitions.list(scope)).map(attributeView) };
}

/** DELETE /contact-attributes/{key}: the definition as it was; every contact's value of it goes too. */
export async function deleteContactAttribute(ports: Pick<ContactPorts, 'attributeDefinitions'>, scope: BusinessScope, key: string): Promise<ContactAttribute> {
  const definition = (await ports.attributeDefinitions.list(scope)).find((stored) => stored.key === key);
  if (!definition || !(await ports.attributeDefinitions.remove(scope, key))) throw new CatalogError('ATTRIBUTE_UNDEFINED', `No contact attribute is defined with the key ${JSON.stringify(key)}.`);
  return attributeView(definition);
}

/** The definitions as the filter compiler and the value validator read them. */
export function attributeDefinitionsOf(stored: readonly StoredAttributeDefinition[]): AttributeDefinition[] {
  return stored.map((definition) => ({ key: definition.key, type: definition.type as AttributeType, options: definition.options ?? [] }));
}

function attributeView(definition: StoredAttributeDefinition): ContactAttribute {
  return { key: definition.key, type: definition.type, options: [...(definition.options ?? [])], created_at: definition.created_at.toISOString() };
}
