import { CatalogError } from '@cmsg/errors';
import { assertHumanScheduleSendable, assertTemplateVariables, scheduleExecutorFor } from './schedule-rules';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof CatalogError ? error.code : 'not a catalog error';
  }
}

describe('scheduleExecutorFor (SPEC 4.1 rule 1)', () => {
  it.each([
    ['ai_employee', 'ai-1', null, undefined],
    ['ai_employee', 'ai-1', 'ai-1', undefined],
    ['ai_employee', 'ai-1', 'ai-2', 'OWNER_MISMATCH'],
    ['ai_employee', null, null, 'NO_AI_EMPLOYEE_ASSIGNED'],
    ['ai_employee', null, 'ai-2', 'OWNER_MISMATCH'],
    ['human_user', null, null, undefined],
    ['human_user', 'ai-1', null, 'OWNER_MISMATCH'],
  ] as const)('%s branch, assigned %s, given %s -> %s', (kind, assigned, given, code) => {
    expect(codeOf(() => scheduleExecutorFor(kind, assigned, given))).toBe(code);
  });

  it('fires an AI schedule with the assigned employee', () => {
    expect(scheduleExecutorFor('ai_employee', 'ai-1', null)).toBe('ai-1');
    expect(scheduleExecutorFor('human_user', null, null)).toBeNull();
  });
});

describe('assertHumanScheduleSendable (SPEC 4.1 rule 2)', () => {
  it.each([
    ['message', 'open', undefined],
    ['quick_reply', 'open', undefined],
    ['template', 'open', undefined],
    ['template', 'closed', undefined],
    ['message', 'closed', 'WINDOW_CLOSED'],
    ['quick_reply', 'closed', 'WINDOW_CLOSED'],
  ])('%s with the window %s -> %s', (kind, window, code) => {
    expect(codeOf(() => assertHumanScheduleSendable(kind, window))).toBe(code);
  });
});

describe('assertTemplateVariables', () => {
  const check = (count: number, variables: { index: number; value: string }[]) => codeOf(() => assertTemplateVariables('template_variables', 'greeting', count, variables));

  it('accepts exactly 1..n, in any order', () => {
    expect(check(0, [])).toBeUndefined();
    expect(check(2, [{ index: 2, value: 'b' }, { index: 1, value: 'a' }])).toBeUndefined();
  });

  it('refuses a wrong count, an unknown or repeated index, an empty value as INVALID_REQUEST', () => {
    expect(check(2, [{ index: 1, value: 'a' }])).toBe('INVALID_REQUEST');
    expect(check(1, [{ index: 2, value: 'a' }])).toBe('INVALID_REQUEST');
    expect(check(2, [{ index: 1, value: 'a' }, { index: 1, value: 'b' }])).toBe('INVALID_REQUEST');
    expect(check(1, [{ index: 1, value: '  ' }])).toBe('INVALID_REQUEST');
  });
});
