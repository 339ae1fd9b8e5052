import { groupFor, liveText, sequenceOfLiveText } from './action-group-load';

describe('action group load', () => {
  it('finds the group of a text sent by its send_message action', () => {
    const send = groupFor('conversation-uuid', 42).actions.find((action) => action.type === 'send_message') as { text: string };
    expect(send.text).toBe(liveText(42));
    expect(sequenceOfLiveText(send.text)).toBe(42);
    expect(sequenceOfLiveText('benchmark message 4x')).toBeUndefined();
    expect(sequenceOfLiveText('Hello Bench, your order is on its way.')).toBeUndefined();
  });
});
