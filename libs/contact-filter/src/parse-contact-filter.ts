import type { AttributeDefinition } from './attribute-definition';
import { FILTER_OPS, type ContactFilter, type FilterCondition, type FilterOp, type GroupCombinator, type NestedFilterGroup } from './contact-filter';
import { fieldRuleOf } from './filter-fields';
import { invalidRequest } from './invalid-request';
import { MAX_FILTER_CONDITIONS, MAX_FILTER_DEPTH, MAX_IN_VALUES } from './limits';

const CONDITION_KEYS = ['field', 'op', 'value'];

/**
 * Parses and checks a filter of CONTRACT 10.1 (unknown input, e.g. a request body's `filter`):
 * INVALID_REQUEST naming the offending path (`filter.and[2].or[0].op`). Unknown members are refused,
 * not dropped: a misspelt key would otherwise widen the audience silently.
 */
export function parseContactFilter(input: unknown, definitions: readonly AttributeDefinition[]): ContactFilter {
  const counter = { conditions: 0 };
  const { combinator, members } = groupOf(input, 'filter');
  const parsed = members.map((member, index) => {
    const path = `filter.${combinator}[${index}]`;
    return isGroupInput(member) ? nestedGroupOf(member, path, definitions, counter) : conditionOf(member, path, definitions, counter);
  });
  return { combinator, members: parsed };
}

interface ConditionCounter {
  conditions: number;
}

function nestedGroupOf(input: unknown, path: string, definitions: readonly AttributeDefinition[], counter: ConditionCounter): NestedFilterGroup {
  const { combinator, members } = groupOf(input, path);
  const parsed = members.map((member, index) => {
    const memberPath = `${path}.${combinator}[${index}]`;
    if (isGroupInput(member)) throw invalidRequest(memberPath, `groups nest at most ${MAX_FILTER_DEPTH} levels: a group inside a nested group holds conditions only`);
    return conditionOf(member, memberPath, definitions, counter);
  });
  return { combinator, members: parsed };
}

function groupOf(input: unknown, path: string): { combinator: GroupCombinator; members: unknown[] } {
  if (!isPlainObject(input)) throw invalidRequest(path, 'must be an object holding either "and" or "or"');
  const keys = Object.keys(input);
  const combinators = keys.filter((key): key is GroupCombinator => key === 'and' || key === 'or');
  if (combinators.length !== 1) throw invalidRequest(path, 'must hold exactly one of "and" and "or"');
  const combinator = combinators[0];
  const unknown = keys.find((key) => key !== combinator);
  if (unknown !== undefined) throw invalidRequest(`${path}.${unknown}`, 'is not a member of a group (a group holds only "and" or "or")');
  const members = input[combinator];
  if (!Array.isArray(members) || members.length < 1 || members.length > MAX_FILTER_CONDITIONS) {
    throw invalidRequest(`${path}.${combinator}`, `must be an array of 1 to ${MAX_FILTER_CONDITIONS} conditions or groups`);
  }
  return { combinator, members };
}

function conditionOf(input: unknown, path: string, definitions: readonly AttributeDefinition[], counter: ConditionCounter): FilterCondition {
  if (!isPlainObject(input)) throw invalidRequest(path, 'must be a condition { field, op, value } or a group { and } / { or }');
  counter.conditions += 1;
  if (counter.conditions > MAX_FILTER_CONDITIONS) throw invalidRequest(path, `a filter holds at most ${MAX_FILTER_CONDITIONS} conditions in all`);
  const unknown = Object.keys(input).find((key) => !CONDITION_KEYS.includes(key));
  if (unknown !== undefined) throw invalidRequest(`${path}.${unknown}`, 'is not a member of a condition (field, op, value)');
  const rule = fieldRuleOf(input['field'], definitions, `${path}.field`);
  const op = input['op'];
  if (typeof op !== 'string' || !(FILTER_OPS as readonly string[]).includes(op)) {
    throw invalidRequest(`${path}.op`, `unknown op ${JSON.stringify(op ?? null)} (ops: ${FILTER_OPS.join(', ')})`);
  }
  const filterOp = op as FilterOp;
  if (!rule.ops.includes(filterOp)) throw invalidRequest(`${path}.op`, `${op} does not apply to ${rule.field} (it takes ${rule.ops.join(', ')})`);
  const valuePath = `${path}.value`;
  if (!('value' in input)) throw invalidRequest(valuePath, 'is required');
  const value = input['value'];
  if (filterOp === 'exists') {
    if (typeof value !== 'boolean') throw invalidRequest(valuePath, 'must be true or false for exists');
    return { field: rule.field, op: filterOp, value };
  }
  if (filterOp === 'in' || filterOp === 'nin') {
    if (!Array.isArray(value) || value.length < 1 || value.length > MAX_IN_VALUES) throw invalidRequest(valuePath, `must be an array of 1 to ${MAX_IN_VALUES} values for ${op}`);
    return { field: rule.field, op: filterOp, value: value.map((one, index) => rule.scalar(one, filterOp, `${valuePath}[${index}]`)) };
  }
  return { field: rule.field, op: filterOp, value: rule.scalar(value, filterOp, valuePath) };
}

function isGroupInput(input: unknown): boolean {
  return isPlainObject(input) && ('and' in input || 'or' in input);
}

function isPlainObject(input: unknown): input is Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input);
}
