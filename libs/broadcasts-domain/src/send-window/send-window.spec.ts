import { CatalogError } from '@cmsg/errors';
import { parseSendWindow } from './send-window';
import { SendWindowError } from './send-window-error';

function refusalOf(input: unknown): string {
  try {
    parseSendWindow(input);
  } catch (error) {
    expect(error).toBeInstanceOf(SendWindowError);
    expect(error).toBeInstanceOf(CatalogError);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', httpStatus: 400 });
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(input)} was accepted`);
}

describe('parseSendWindow', () => {
  it('accepts HH:MM from 00:00 to 23:59, across midnight too', () => {
    expect(parseSendWindow({ from: '09:00', to: '18:30' })).toEqual({ from: '09:00', to: '18:30' });
    expect(parseSendWindow({ from: '22:00', to: '06:00' })).toEqual({ from: '22:00', to: '06:00' });
    expect(parseSendWindow({ from: '00:00', to: '23:59' })).toEqual({ from: '00:00', to: '23:59' });
  });

  it.each([
    [null, 'send_window: must be an object { from, to }'],
    ['09:00-18:00', 'send_window: must be an object { from, to }'],
    [{ to: '18:00' }, 'send_window.from: must be a time HH:MM'],
    [{ from: '9:00', to: '18:00' }, 'send_window.from: must be a time HH:MM'],
    [{ from: '24:00', to: '18:00' }, 'send_window.from: must be a time HH:MM'],
    [{ from: '09:00', to: '18:60' }, 'send_window.to: must be a time HH:MM'],
    [{ from: '09:00', to: 1800 }, 'send_window.to: must be a time HH:MM'],
    [{ from: '09:00', to: '18:00:00' }, 'send_window.to: must be a time HH:MM'],
    [{ from: '09:00', to: '09:00' }, 'send_window: from and to must differ'],
  ])('refuses %j', (input, message) => {
    expect(refusalOf(input)).toContain(`Invalid request: ${message}`);
  });
});
