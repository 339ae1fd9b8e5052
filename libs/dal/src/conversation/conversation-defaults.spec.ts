import { storedConversationDefaults } from './conversation-defaults';
import { ConversationModel } from './conversation.schema';

describe('storedConversationDefaults', () => {
  it("is what the schema's defaults make of a new conversation", () => {
    const at = new Date('2026-11-29T10:00:00Z');
    const identity = { _id: 'conv-1', business_id: 'b1', contact_id: 'contact-1', channel_id: 'ch1' };
    const byMongoose = new ConversationModel({ ...identity, sort_at: at, created_at: at, updated_at: at }).toObject();
    expect(storedConversationDefaults(identity, at)).toEqual(byMongoose);
  });
});
