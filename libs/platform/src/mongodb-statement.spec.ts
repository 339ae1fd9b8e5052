import { scrubbedMongoStatement } from './mongodb-statement';

describe('scrubbedMongoStatement', () => {
  it('keeps the shape and hides every value', () => {
    expect(scrubbedMongoStatement({ business_id: 'b1', n: 3, tags: ['a', 'b'], filter: { $gt: new Date(0) } })).toBe('{"business_id":"?","n":"?","tags":["?","?"],"filter":{"$gt":"?"}}');
  });

  it('never encodes binary content', () => {
    const binary = { _bsontype: 'Binary', buffer: Buffer.alloc(1024), toJSON: () => { throw new Error('encoded'); } };
    expect(scrubbedMongoStatement({ files_id: { _bsontype: 'ObjectId' }, n: 0, data: binary, raw: new Uint8Array(4) })).toBe('{"files_id":"?","n":"?","data":"?","raw":"?"}');
  });
});
