import { TemplateHeaderSchema, type TemplateHeader } from '@cmsg/api-schemas';
import { protoTemplateHeaderToDomain, protoTemplateHeaderToPublic, publicTemplateHeaderToProto, storedTemplateHeaderToProto } from './template-header.codec';

const FILE = '33333333-3333-4333-8333-333333333333';

/** Every header the public schema accepts: text, and each media type with and without a transcription. */
const HEADERS: [string, TemplateHeader][] = [
  ['text', { type: 'text', value: 'Pedido A-17' }],
  ...(['image', 'video', 'document'] as const).flatMap((type): [string, TemplateHeader][] => [
    [type, { type, file_uuid: FILE }],
    [`${type} with a transcription`, { type, file_uuid: FILE, transcription: 'A box on a table' }],
  ]),
];

describe('template header codec', () => {
  it.each(HEADERS)('%s: public -> RPC -> public is the header sent, and the public schema takes it', (_, header) => {
    const json = protoTemplateHeaderToPublic(publicTemplateHeaderToProto(header)!);
    expect(json).toStrictEqual(header);
    expect(TemplateHeaderSchema.parse(json)).toStrictEqual(header);
  });

  it.each(HEADERS)('%s: stored (the public header as validated) reads as the RPC header the public one makes', (_, header) => {
    expect(storedTemplateHeaderToProto(TemplateHeaderSchema.parse(header))).toEqual(publicTemplateHeaderToProto(header));
  });

  it('public -> RPC carries exactly the members of its type', () => {
    expect(publicTemplateHeaderToProto({ type: 'text', value: 'Hi' })).toEqual({ type: 'text', value: 'Hi' });
    expect(publicTemplateHeaderToProto({ type: 'image', file_uuid: FILE, transcription: 'a cat' })).toEqual({ type: 'image', file_uuid: FILE, transcription: 'a cat' });
    expect(publicTemplateHeaderToProto(undefined)).toBeUndefined();
  });

  it.each(HEADERS)('%s: public -> RPC -> domain keeps the header', (_, header) => {
    expect(protoTemplateHeaderToDomain(publicTemplateHeaderToProto(header)!)).toStrictEqual(header);
  });

  it('RPC -> domain leaves what is missing for the command to refuse', () => {
    expect(protoTemplateHeaderToDomain({ type: 'text' })).toStrictEqual({ type: 'text', value: '' });
    expect(protoTemplateHeaderToDomain({ type: 'video', value: 'ignored' })).toStrictEqual({ type: 'video', file_uuid: '' });
    expect(protoTemplateHeaderToDomain({ type: 'location', file_uuid: FILE })).toMatchObject({ type: 'location', file_uuid: FILE });
    // A transcription on a text header reaches the command, which checks its length like any other.
    expect(protoTemplateHeaderToDomain({ type: 'text', value: 'Hi', transcription: '' })).toStrictEqual({ type: 'text', value: 'Hi', transcription: '' });
  });

  it('stored: an empty string, or a member that is not a string, is absent', () => {
    expect(storedTemplateHeaderToProto({ type: 'image', file_uuid: FILE, transcription: '' })).toStrictEqual({ type: 'image', value: undefined, file_uuid: FILE, transcription: undefined });
    expect(storedTemplateHeaderToProto({ type: 'text', value: 7 })).toStrictEqual({ type: 'text', value: undefined, file_uuid: undefined, transcription: undefined });
  });
});
