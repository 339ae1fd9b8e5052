import type { AttributeDefinition } from './attribute-definition';

/** One definition of each type, shared by the filter specs. */
export const TEST_DEFINITIONS: AttributeDefinition[] = [
  { key: 'nickname', type: 'text', options: [] },
  { key: 'score', type: 'number', options: [] },
  { key: 'vip', type: 'boolean', options: [] },
  { key: 'birthday', type: 'date', options: [] },
  { key: 'plan', type: 'list', options: ['gold', 'silver'] },
];

export const TAG_A = '3f2b8c1e-6a4d-4e0b-9c7a-1d2e3f4a5b6c';
export const TAG_B = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';
