import { randomUUID } from 'node:crypto';
import { AiEmployeeRepository, BusinessRepository, businessScope } from '@cmsg/dal';
import { connectToStackDatabase, createTestBusiness } from '@cmsg/testing';
import { WRITERS, tally } from './contention-fixtures';

/**
 * Wallet charges have no public endpoint (the actions-runner charges AI runs, ingestion charges
 * transcriptions), so these go through the repositories, on the stack's MongoDB.
 */
describe('concurrent wallet charges', () => {
  const aiEmployees = new AiEmployeeRepository();
  const businesses = new BusinessRepository();
  const COST = 10;
  const ROOM = 7;
  const employees = { room: randomUUID(), repeated: randomUUID() };
  let scope: ReturnType<typeof businessScope>;

  beforeAll(async () => {
    await connectToStackDatabase();
    const business = await createTestBusiness((seed) => {
      seed.ai_employees = [
        { uuid: employees.room, name: 'Room', model: 'gpt-test', wallet_tokens: ROOM * COST },
        { uuid: employees.repeated, name: 'Repeated', model: 'gpt-test', wallet_tokens: 1000 },
      ];
      seed.vision_wallet_tokens = ROOM * COST;
    });
    scope = businessScope(business.businessId);
  });

  const operations = (): string[] => Array.from({ length: WRITERS }, () => randomUUID());

  it(`an AI employee wallet with room for exactly ${ROOM} charges accepts exactly ${ROOM} of ${WRITERS}`, async () => {
    const ids = operations();
    const outcomes = await Promise.all(ids.map((operationId) => aiEmployees.chargeWallet(scope, employees.room, { tokens: COST, operationId })));
    const charged = ids.filter((_, index) => outcomes[index]!.result === 'charged');
    expect(outcomes.filter((outcome) => outcome!.result === 'refused')).toHaveLength(WRITERS - ROOM);
    const stored = (await aiEmployees.findById(scope, employees.room))!;
    expect(stored).toMatchObject({ wallet_tokens: 0, wallet_unbilled_tokens: 0 });
    // The wallet remembers exactly the operations it charged.
    const result = tally('ai-wallet-room-for-7', WRITERS, charged, stored.wallet_recent_operation_ids.filter((id) => ids.includes(id)));
    expect({ ...result, charged: charged.length }).toEqual({ writers: WRITERS, lost: 0, twice: 0, charged: ROOM });
  });

  it(`${WRITERS} charges of one operation id charge once`, async () => {
    const operationId = randomUUID();
    const outcomes = await Promise.all(Array.from({ length: WRITERS }, () => aiEmployees.chargeWallet(scope, employees.repeated, { tokens: COST, operationId })));
    expect(outcomes.map((outcome) => outcome!.result).sort()).toEqual(['charged', ...Array(WRITERS - 1).fill('repeated')].sort());
    const stored = (await aiEmployees.findById(scope, employees.repeated))!;
    expect(stored.wallet_tokens).toBe(1000 - COST);
    expect(tally('ai-wallet-one-operation', WRITERS, [operationId], stored.wallet_recent_operation_ids)).toMatchObject({ lost: 0, twice: 0 });
  });

  it(`the vision wallet with room for exactly ${ROOM} charges accepts exactly ${ROOM} of ${WRITERS}, and repeats of them charge nothing`, async () => {
    const ids = operations();
    const outcomes = await Promise.all([...ids, ...ids].map((operationId) => businesses.chargeVisionWallet(scope, { tokens: COST, operationId })));
    const charged = [...ids, ...ids].filter((_, index) => outcomes[index]!.result === 'charged');
    const stored = (await businesses.findById(scope))!;
    expect(stored.vision_wallet_tokens).toBe(0);
    const result = tally('vision-wallet-room-for-7', WRITERS * 2, charged, stored.vision_wallet_recent_operation_ids.filter((id) => ids.includes(id)));
    expect({ ...result, charged: charged.length }).toEqual({ writers: WRITERS * 2, lost: 0, twice: 0, charged: ROOM });
  });
});
