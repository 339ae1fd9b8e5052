import { ActionGroupCommandSchema } from './action-group-command';
import { AiRunCommandSchema, createAiRunCommand } from './ai-run-command';

const fields = {
  group_uuid: 'c3d0b3a0-5b7e-5f1a-8c2d-1e2f3a4b5c6d',
  business_id: 'b1',
  token_uuid: '',
  request_id: null,
  conversation_uuid: '0b6f6d2e-2f1c-4f7e-9d5a-3c4b5a6d7e8f',
  created_at: '2025-03-01T12:00:00.000Z',
};

describe('AI run command', () => {
  it('is an action group of one run_ai action with the run-ai endpoint defaults', () => {
    expect(createAiRunCommand(fields)).toEqual({
      kind: 'action_group',
      source: 'run_ai',
      depth: 0,
      stop_on_error: true,
      escalate_on_error: true,
      actions: [{ type: 'run_ai' }],
      ...fields,
    });
  });

  it('survives the topic round trip and is a valid action group command for the runner', () => {
    const command = createAiRunCommand(fields);
    const decoded: unknown = JSON.parse(JSON.stringify(command));
    expect(AiRunCommandSchema.parse(decoded)).toEqual(command);
    expect(ActionGroupCommandSchema.parse(decoded)).toEqual(command);
  });

  it('refuses invalid fields, naming them', () => {
    expect(() => createAiRunCommand({ ...fields, conversation_uuid: 'nope' })).toThrow('conversation_uuid');
    expect(() => createAiRunCommand({ ...fields, business_id: '' })).toThrow('business_id');
    expect(() => createAiRunCommand({ ...fields, created_at: 'yesterday' })).toThrow('created_at');
  });

  it('refuses an action group that is not exactly one run_ai action from the run_ai source', () => {
    const command = createAiRunCommand(fields);
    expect(AiRunCommandSchema.safeParse({ ...command, source: 'action_group' }).success).toBe(false);
    expect(AiRunCommandSchema.safeParse({ ...command, actions: [{ type: 'mark_resolved' }] }).success).toBe(false);
    expect(AiRunCommandSchema.safeParse({ ...command, actions: [{ type: 'run_ai' }, { type: 'run_ai' }] }).success).toBe(false);
  });
});
