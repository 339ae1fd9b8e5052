import { CatalogError, type ErrorCode } from '@cmsg/errors';
import { type BusinessScope, nameLookupKey } from '@cmsg/dal';

/** A business object named by uuid or by name (CONTRACT 4): `{uuid}` or `{name}`; uuid wins when both are sent. */
export interface ObjectRef {
  uuid?: string;
  name?: string;
}

export interface ObjectRefCodes {
  notFound: ErrorCode;
  ambiguous: ErrorCode;
  /** Set where the catalog has a code for "a uuid of another business" (tags, categories). */
  otherBusiness?: ErrorCode;
}

/** The repository of a named kind of object (NamedTenantRepository). */
export interface NamedObjects<Stored extends { _id: string }> {
  findById(scope: BusinessScope, id: string): Promise<Stored | null>;
  findByNameKey(scope: BusinessScope, nameKey: string, limit?: number): Promise<Stored[]>;
  existsInAnotherBusiness(scope: BusinessScope, id: string): Promise<boolean>;
}

export function hasObjectRef(ref: ObjectRef | undefined): ref is ObjectRef {
  return Boolean(ref?.uuid || ref?.name);
}

/**
 * Resolves a reference within the business: by uuid, or by the normalised name key (names are
 * case-insensitive). A name matching several objects is the kind's ambiguity code.
 */
export async function resolveObjectRef<Stored extends { _id: string }>(
  objects: NamedObjects<Stored>,
  scope: BusinessScope,
  ref: ObjectRef,
  codes: ObjectRefCodes,
  label: string,
): Promise<Stored> {
  if (ref.uuid) {
    const found = await objects.findById(scope, ref.uuid);
    if (found) return found;
    if (codes.otherBusiness && (await objects.existsInAnotherBusiness(scope, ref.uuid))) {
      throw new CatalogError(codes.otherBusiness, `The ${label} '${ref.uuid}' belongs to another business.`);
    }
    throw new CatalogError(codes.notFound, `No ${label} with uuid '${ref.uuid}' in this business.`);
  }
  if (ref.name) {
    const key = nameLookupKey(ref.name);
    const matches = key ? await objects.findByNameKey(scope, key) : [];
    if (matches.length > 1) throw new CatalogError(codes.ambiguous, `Several ${label}s are named '${ref.name}'; use the uuid.`);
    if (matches.length === 1) return matches[0]!;
    throw new CatalogError(codes.notFound, `No ${label} named '${ref.name}' in this business.`);
  }
  throw new CatalogError('INVALID_REQUEST', `${label}: uuid or name is required.`);
}
