import { notingLiveActivity } from './live-activity';

describe('notingLiveActivity', () => {
  it('notes live work for every action but a broadcast send, and answers what the handler answers', async () => {
    let noted = 0;
    const handlers = notingLiveActivity(
      { addNote: async (request: { text: string }) => `note ${request.text}`, sendMessage: async (request: { broadcast?: { uuid: string } }) => (request.broadcast ? 'broadcast' : 'live') },
      { noteLive: () => void (noted += 1) },
    );
    await expect(handlers.addNote({ text: 'hi' })).resolves.toBe('note hi');
    await expect(handlers.sendMessage({})).resolves.toBe('live');
    expect(noted).toBe(2);
    await expect(handlers.sendMessage({ broadcast: { uuid: 'b1' } })).resolves.toBe('broadcast');
    expect(noted).toBe(2);
  });
});
