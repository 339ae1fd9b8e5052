import { attributeKeyOf, isAttributeField, isFilterGroup, type ContactFilter, type FilterCondition, type FilterScalar, type NestedFilterGroup } from './contact-filter';

type KeyNode = string | number | boolean | KeyNode[];

/**
 * A canonical string of a parsed filter, bound into list cursors: values are already in their
 * stored form, and the members of a group and the values of `in`/`nin` are deduplicated and sorted, so two filters that mean the same get the same key whatever order they were
 * written in.
 */
export function contactFilterKey(filter: ContactFilter): string {
  return JSON.stringify(groupNode(filter));
}

/** The attribute keys a filter mentions, sorted: a cursor whose filter names a deleted definition is stale. */
export function attributeKeysOf(filter: ContactFilter): string[] {
  const keys = new Set<string>();
  const visit = (group: ContactFilter | NestedFilterGroup): void => {
    for (const member of group.members) {
      if (isFilterGroup(member)) visit(member);
      else if (isAttributeField(member.field)) keys.add(attributeKeyOf(member.field));
    }
  };
  visit(filter);
  return [...keys].sort();
}

function groupNode(group: ContactFilter | NestedFilterGroup): KeyNode[] {
  const members = group.members.map((member) => JSON.stringify(isFilterGroup(member) ? groupNode(member) : conditionNode(member)));
  return [group.combinator, [...new Set(members)].sort()];
}

function conditionNode(condition: FilterCondition): KeyNode[] {
  switch (condition.op) {
    case 'in':
    case 'nin':
      return [condition.field, condition.op, [...new Set(condition.value.map((value) => JSON.stringify(scalarNode(value))))].sort()];
    default:
      return [condition.field, condition.op, scalarNode(condition.value)];
  }
}

/** Dates as their instant: the field already tells a date from a string. */
function scalarNode(value: FilterScalar): KeyNode {
  return value instanceof Date ? value.toISOString() : value;
}
