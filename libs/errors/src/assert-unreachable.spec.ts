import { assertUnreachable } from './assert-unreachable';
import { CatalogError } from './catalog-error';

describe('assertUnreachable', () => {
  const arrived = (value: unknown) => value as never;

  it('throws an Error naming what arrived: a string as it is, anything else as JSON', () => {
    expect(() => assertUnreachable(arrived('sms'), 'Unknown timeline role')).toThrow(new Error('Unknown timeline role: sms'));
    expect(() => assertUnreachable(arrived({ type: 'fax' }), 'Unknown action type')).toThrow(new Error('Unknown action type: {"type":"fax"}'));
    expect(() => assertUnreachable(arrived(17), 'Unmapped error code')).toThrow(new Error('Unmapped error code: 17'));
  });

  it("throws the caller's own error when given one", () => {
    const thrown = (() => {
      try {
        assertUnreachable(arrived({ type: 'fax' }), (value) => new CatalogError('INVALID_REQUEST', `unsupported content ${JSON.stringify(value)}`));
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(CatalogError);
    expect(thrown).toMatchObject({ code: 'INVALID_REQUEST', message: 'unsupported content {"type":"fax"}' });
  });
});
