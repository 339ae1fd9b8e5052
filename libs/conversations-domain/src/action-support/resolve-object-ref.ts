import { CatalogError, type ErrorCode } from '@cmsg/errors';
import { type BusinessScope, nameLookupKey, scopedFilter } from '@cmsg/dal';
import type { Model } from 'mongoose';

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

export function hasObjectRef(ref: ObjectRef | undefined): ref is ObjectRef {
  return Boolean(ref?.uuid || ref?.name);
}

/**
 * Resolves a reference within the business: by uuid, or by the normalised name key (FerretDB has
 * no collation). A name matching several objects is the kind's ambiguity code.
 */
export async function resolveObjectRef<Stored extends { _id: string }>(
  model: Model<any>,
  scope: BusinessScope,
  ref: ObjectRef,
  codes: ObjectRefCodes,
  label: string,
): Promise<Stored> {
  if (ref.uuid) {
    const found = await model.findOne(scopedFilter(scope, { _id: ref.uuid })).lean<Stored>();
    if (found) return found;
    // Only existence is read outside the business, and only to choose the error code the catalog defines for it.
    if (codes.otherBusiness && (await model.exists({ _id: ref.uuid, business_id: { $ne: scope.businessId } }))) {
      throw new CatalogError(codes.otherBusiness, `The ${label} '${ref.uuid}' belongs to another business.`);
    }
    throw new CatalogError(codes.notFound, `No ${label} with uuid '${ref.uuid}' in this business.`);
  }
  if (ref.name) {
    const key = nameLookupKey(ref.name);
    // Two are enough to know it is ambiguous.
    const matches = key ? await model.find(scopedFilter(scope, { name_key: key })).sort({ _id: 1 }).limit(2).lean<Stored[]>() : [];
    if (matches.length > 1) throw new CatalogError(codes.ambiguous, `Several ${label}s are named '${ref.name}'; use the uuid.`);
    if (matches.length === 1) return matches[0]!;
    throw new CatalogError(codes.notFound, `No ${label} named '${ref.name}' in this business.`);
  }
  throw new CatalogError('INVALID_REQUEST', `${label}: uuid or name is required.`);
}
