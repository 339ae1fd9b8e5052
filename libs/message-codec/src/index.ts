export * from './domain-send-content';
export type { Json } from './json-fields';
export { publicTemplateHeaderToProto, protoTemplateHeaderToDomain, protoTemplateHeaderToPublic, storedTemplateHeaderToProto } from './template-header.codec';
export { publicTemplateToProto, protoTemplateToDomain, storedTemplateToProto, storedTemplateVariablesToProto, storedButtonParametersToProto } from './template.codec';
export type { PublicTemplateParameters } from './template.codec';
export { publicTextToProto, publicSendActionToProto, protoSendContentToDomain, protoObjectRefToDomain } from './send-content.codec';
export type { ProtoSendContent, PublicTextSend, PublicSendAction } from './send-content.codec';
export {
  publicScheduledPayloadToProto,
  protoScheduledPayloadToPublicRequest,
  protoScheduledPayloadToPublicRecord,
  storedScheduledPayloadToProto,
  protoScheduledPayloadToSendContent,
  storedScheduleTemplateToPayload,
} from './scheduled-payload.codec';
export type { StoredScheduleTemplate } from './scheduled-payload.codec';
