import { getTemplateEndpoint, listTemplatesEndpoint } from '@cmsg/api-schemas';
import { toTemplate, toTemplateListResponse } from '../mappers/template.mapper';
import { type BusinessRoute, businessRoute } from './business-route';

export const templateRoutes: readonly BusinessRoute[] = [
  businessRoute(listTemplatesEndpoint, {
    call: ({ conversations }, { caller, query }) => conversations.listTemplates({ caller, ...query }),
    toResponse: toTemplateListResponse,
  }),
  businessRoute(getTemplateEndpoint, {
    call: ({ conversations }, { caller, params }) => conversations.getTemplate({ caller, uuid: params.uuid }),
    toResponse: toTemplate,
  }),
];
