import type { NamedRef as ProtoNamedRef, Tag as ProtoTag } from '@cmsg/proto';
import type { NamedRef, Tag } from '@cmsg/api-schemas';

/** Proto leaves an absent optional field undefined; the public JSON says null. */
export function orNull<Value>(value: Value | undefined): Value | null {
  return value ?? null;
}

export function mapOrNull<Value, Mapped>(value: Value | undefined, map: (present: Value) => Mapped): Mapped | null {
  return value === undefined ? null : map(value);
}

/** A message field the public shape requires: its absence is an upstream bug, answered as 500. */
export function requiredField<Value>(value: Value | undefined, field: string): Value {
  if (value === undefined) throw new Error(`Upstream response lacks required field ${field}`);
  return value;
}

/** Proto carries enums as strings; a value outside the public enum is an upstream bug, answered as 500. */
export function publicEnumValue<const Allowed extends string>(allowed: readonly Allowed[], value: string, field: string): Allowed {
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`Upstream response has ${field} = ${JSON.stringify(value)}, not one of ${allowed.join('|')}`);
  return value as Allowed;
}

export function toNamedRef(ref: ProtoNamedRef): NamedRef {
  return { uuid: ref.uuid, name: ref.name };
}

export function toTag(tag: ProtoTag): Tag {
  return { uuid: tag.uuid, name: tag.name, color: tag.color };
}
