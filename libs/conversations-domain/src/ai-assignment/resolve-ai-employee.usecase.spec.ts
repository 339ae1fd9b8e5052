import { businessScope } from '@cmsg/dal';
import { InMemoryAiEmployees, aiEmployeeRow } from '../testing/in-memory-ai-employees';
import { resolveAiEmployee } from './resolve-ai-employee.usecase';

describe('resolveAiEmployee', () => {
  let employees: InMemoryAiEmployees;
  const b1 = businessScope('b1');
  beforeEach(() => {
    employees = new InMemoryAiEmployees();
    employees.rows.push(
      aiEmployeeRow({ _id: 'ai-ana', business_id: 'b1', name: 'Ana', model: 'gpt-x', instructions: 'Be brief.', wallet_tokens: 500 }),
      aiEmployeeRow({ _id: 'ai-bo-1', business_id: 'b1', name: 'Bo' }),
      aiEmployeeRow({ _id: 'ai-bo-2', business_id: 'b1', name: 'BO' }),
      aiEmployeeRow({ _id: 'ai-cy', business_id: 'b2', name: 'Cy' }),
    );
  });

  it('answers what an AI run needs, by uuid or by name (case-insensitive)', async () => {
    const ana = { uuid: 'ai-ana', name: 'Ana', model: 'gpt-x', instructions: 'Be brief.', wallet_tokens: 500, wallet_blocked: false };
    expect(await resolveAiEmployee(employees, b1, { uuid: 'ai-ana' })).toEqual(ana);
    expect(await resolveAiEmployee(employees, b1, { name: ' ana ' })).toEqual(ana);
    // uuid wins when both are sent
    expect((await resolveAiEmployee(employees, b1, { uuid: 'ai-ana', name: 'Bo' })).uuid).toBe('ai-ana');
  });

  it('shows an empty wallet as blocked, and a blocked one whatever its balance', async () => {
    employees.rows.push(aiEmployeeRow({ _id: 'ai-empty', business_id: 'b1', name: 'Empty', wallet_tokens: 0 }));
    employees.rows.push(aiEmployeeRow({ _id: 'ai-blocked', business_id: 'b1', name: 'Blocked', wallet_tokens: 900, wallet_blocked: true }));
    expect(await resolveAiEmployee(employees, b1, { uuid: 'ai-empty' })).toMatchObject({ wallet_tokens: 0, wallet_blocked: true });
    expect(await resolveAiEmployee(employees, b1, { uuid: 'ai-blocked' })).toMatchObject({ wallet_tokens: 900, wallet_blocked: true });
  });

  it.each([
    ['an unknown uuid', { uuid: 'ai-nobody' }, "No AI employee with uuid 'ai-nobody' in this business."],
    ['an unknown name', { name: 'Nobody' }, "No AI employee named 'Nobody' in this business."],
    ["another business's employee by uuid", { uuid: 'ai-cy' }, "No AI employee with uuid 'ai-cy' in this business."],
    ["another business's employee by name", { name: 'Cy' }, "No AI employee named 'Cy' in this business."],
  ])('answers AI_EMPLOYEE_NOT_FOUND for %s', async (_case, ref, message) => {
    await expect(resolveAiEmployee(employees, b1, ref)).rejects.toMatchObject({ code: 'AI_EMPLOYEE_NOT_FOUND', message });
  });

  it('answers AMBIGUOUS_AI_EMPLOYEE for a name several employees share', async () => {
    await expect(resolveAiEmployee(employees, b1, { name: 'bo' })).rejects.toMatchObject({ code: 'AMBIGUOUS_AI_EMPLOYEE', message: "Several AI employees are named 'bo'; use the uuid." });
  });

  it('answers INVALID_REQUEST for a reference with neither uuid nor name', async () => {
    await expect(resolveAiEmployee(employees, b1, {})).rejects.toMatchObject({ code: 'INVALID_REQUEST', message: 'AI employee: uuid or name is required.' });
  });
});
