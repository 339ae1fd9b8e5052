import type { BusinessScope } from '../shared/business-scope';
import { BusinessModel } from './business.schema';
import { ContactModel } from '../contact/contact.schema';

/** A typed contact attribute of a business (CONTRACT 10.1). */
export interface StoredAttributeDefinition {
  key: string;
  type: string;
  options: string[];
  created_at: Date;
}

export type DefineOutcome = 'defined' | 'already_defined' | 'limit_reached' | 'no_business';

type DefinitionFields = { contact_attribute_definitions?: StoredAttributeDefinition[]; contact_attribute_cleanups?: string[] };

/**
 * The business's contact attribute definitions, kept in its own document so that "at most N" and
 * "a key once" hold under concurrent definitions without a transaction: one conditional `$push`.
 * Removing one is two steps (the definition, then every contact's value); a key whose second step
 * has not finished is listed in contact_attribute_cleanups, and defining it again finishes it first,
 * so a key defined again never shows values of its former type. Values are only written while
 * their key is defined, so the cleanup never races with a write of the same key.
 */
export class ContactAttributeDefinitionRepository {
  async list(scope: BusinessScope): Promise<StoredAttributeDefinition[]> {
    return (await this.definitionFields(scope))?.contact_attribute_definitions ?? [];
  }

  async define(scope: BusinessScope, definition: StoredAttributeDefinition, limit: number): Promise<DefineOutcome> {
    const before = await this.definitionFields(scope);
    if (!before) return 'no_business';
    if ((before.contact_attribute_cleanups ?? []).includes(definition.key)) await this.removeValues(scope, definition.key);
    const pushed = await BusinessModel.updateOne(
      { _id: scope.businessId, 'contact_attribute_definitions.key': { $ne: definition.key }, [`contact_attribute_definitions.${limit - 1}`]: { $exists: false } },
      { $push: { contact_attribute_definitions: definition }, $pull: { contact_attribute_cleanups: definition.key } },
    ).exec();
    if (pushed.modifiedCount === 1) return 'defined';
    const after = await this.definitionFields(scope);
    if ((after?.contact_attribute_definitions ?? []).some((stored) => stored.key === definition.key)) return 'already_defined';
    return 'limit_reached';
  }

  /** Removes the definition and then every contact's value of it; false when the key was not defined. */
  async remove(scope: BusinessScope, key: string): Promise<boolean> {
    const pulled = await BusinessModel.updateOne(
      { _id: scope.businessId, 'contact_attribute_definitions.key': key },
      { $pull: { contact_attribute_definitions: { key } }, $addToSet: { contact_attribute_cleanups: key } },
    ).exec();
    const pending = pulled.modifiedCount === 1 || ((await this.definitionFields(scope))?.contact_attribute_cleanups ?? []).includes(key);
    if (pending) {
      await this.removeValues(scope, key);
      await BusinessModel.updateOne({ _id: scope.businessId, 'contact_attribute_definitions.key': { $ne: key } }, { $pull: { contact_attribute_cleanups: key } }).exec();
    }
    return pulled.modifiedCount === 1;
  }

  private definitionFields(scope: BusinessScope): Promise<DefinitionFields | null> {
    return BusinessModel.findOne({ _id: scope.businessId }, { contact_attribute_definitions: 1, contact_attribute_cleanups: 1 }).lean<DefinitionFields>().exec();
  }

  private async removeValues(scope: BusinessScope, key: string): Promise<void> {
    // Served by {business_id, attributes.k, attributes.v}.
    await ContactModel.updateMany({ business_id: scope.businessId, 'attributes.k': key }, { $pull: { attributes: { k: key } } }).exec();
  }
}
