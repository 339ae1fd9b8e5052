import { businessScope } from '@cmsg/dal';
import { InMemoryAiEmployees, aiEmployeeRow } from '../testing/in-memory-ai-employees';
import { type ChargeAiWalletCommand, chargeAiWallet } from './charge-ai-wallet.usecase';

describe('chargeAiWallet', () => {
  let employees: InMemoryAiEmployees;
  const b1 = businessScope('b1');
  const charge = (command: Partial<ChargeAiWalletCommand>, scope = b1) => chargeAiWallet(employees, scope, { aiEmployeeUuid: 'ai-ana', tokens: 100, operationId: 'op-1', ...command });
  const ana = () => employees.rows.find((row) => row._id === 'ai-ana')!;

  beforeEach(() => {
    employees = new InMemoryAiEmployees();
    employees.rows.push(aiEmployeeRow({ _id: 'ai-ana', business_id: 'b1', name: 'Ana', wallet_tokens: 250 }), aiEmployeeRow({ _id: 'ai-cy', business_id: 'b2', name: 'Cy', wallet_tokens: 250 }));
  });

  it('charges the tokens and answers the balance left', async () => {
    expect(await charge({ tokens: 100 })).toEqual({ wallet_tokens: 150 });
    expect(ana().wallet_tokens).toBe(150);
  });

  it('charges an operation once: a repeat answers the current balance', async () => {
    await charge({ tokens: 100, operationId: 'op-1' });
    expect(await charge({ tokens: 100, operationId: 'op-1' })).toEqual({ wallet_tokens: 150 });
    expect(await charge({ tokens: 100, operationId: 'op-2' })).toEqual({ wallet_tokens: 50 });
  });

  it('gives what the balance has when it is short of the charge (the rest is unbilled)', async () => {
    expect(await charge({ tokens: 400 })).toEqual({ wallet_tokens: 0 });
    expect(ana().wallet_unbilled_tokens).toBe(150);
  });

  it('accepts a charge of zero tokens', async () => {
    expect(await charge({ tokens: 0 })).toEqual({ wallet_tokens: 250 });
  });

  it.each([
    ['an empty wallet', { wallet_tokens: 0 }],
    ['a blocked wallet', { wallet_blocked: true }],
  ])('refuses %s with WALLET_BLOCKED, naming the employee', async (_case, state) => {
    Object.assign(ana(), state);
    await expect(charge({})).rejects.toMatchObject({ code: 'WALLET_BLOCKED', message: 'The token wallet of AI employee "Ana" is empty or blocked.' });
  });

  it("answers AI_EMPLOYEE_NOT_FOUND for an unknown employee and for another business's, charging nothing", async () => {
    await expect(charge({ aiEmployeeUuid: 'ai-nobody' })).rejects.toMatchObject({ code: 'AI_EMPLOYEE_NOT_FOUND', message: "No AI employee with uuid 'ai-nobody' in this business." });
    await expect(charge({ aiEmployeeUuid: 'ai-cy' })).rejects.toMatchObject({ code: 'AI_EMPLOYEE_NOT_FOUND', message: "No AI employee with uuid 'ai-cy' in this business." });
    expect(employees.rows.find((row) => row._id === 'ai-cy')!.wallet_tokens).toBe(250);
  });

  it.each([
    ['no employee', { aiEmployeeUuid: '' }, 'ai_employee_uuid is required.'],
    ['no operation id', { operationId: '' }, 'operation_id is required.'],
    ['negative tokens', { tokens: -1 }, 'tokens must be a finite number >= 0.'],
    ['tokens that are not a number', { tokens: Number.NaN }, 'tokens must be a finite number >= 0.'],
    ['infinite tokens', { tokens: Number.POSITIVE_INFINITY }, 'tokens must be a finite number >= 0.'],
  ])('refuses %s with INVALID_REQUEST, charging nothing', async (_case, command, message) => {
    await expect(charge(command)).rejects.toMatchObject({ code: 'INVALID_REQUEST', message });
    expect(ana().wallet_tokens).toBe(250);
  });
});
