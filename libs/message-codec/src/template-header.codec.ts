import type { TemplateHeader as PublicTemplateHeader } from '@cmsg/api-schemas';
import type { TemplateHeader as ProtoTemplateHeader } from '@cmsg/proto';
import type { TemplateHeaderInput } from './domain-send-content';
import { type Json, presentFields, storedText } from './json-fields';

/*
 * A template header in its four forms: public (a union by `type`: text with `value`, media with
 * `file_uuid` and an optional `transcription`), RPC (one message with every member optional),
 * domain (TemplateHeaderInput) and stored on a schedule (the public header as validated when it
 * was scheduled).
 */

/** The validated public header (when one is given) as the RPCs carry it. */
export function publicTemplateHeaderToProto(header: PublicTemplateHeader | undefined): ProtoTemplateHeader | undefined {
  if (header === undefined) return undefined;
  return header.type === 'text'
    ? { type: 'text', value: header.value }
    : { type: header.type, file_uuid: header.file_uuid, transcription: header.transcription };
}

/**
 * An RPC header as the domain's input. A missing value or file is the empty string and any other
 * type passes as is: sendMessageCommand refuses both with INVALID_REQUEST.
 */
export function protoTemplateHeaderToDomain(header: ProtoTemplateHeader): TemplateHeaderInput {
  const transcription = header.transcription !== undefined ? { transcription: header.transcription } : {};
  return header.type === 'text'
    ? { type: 'text', value: header.value ?? '', ...transcription }
    : { type: header.type as 'image' | 'video' | 'document', file_uuid: header.file_uuid ?? '', ...transcription };
}

/** An RPC header as public JSON: the members it carries, absent ones left out. */
export function protoTemplateHeaderToPublic(header: ProtoTemplateHeader): Json {
  return presentFields({ type: header.type, value: header.value, file_uuid: header.file_uuid, transcription: header.transcription });
}

/** A header stored on a schedule as the RPCs carry it; an empty string counts as absent. */
export function storedTemplateHeaderToProto(stored: Json): ProtoTemplateHeader {
  return { type: String(stored['type']), value: storedText(stored['value']), file_uuid: storedText(stored['file_uuid']), transcription: storedText(stored['transcription']) };
}
