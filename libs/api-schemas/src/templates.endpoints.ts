import { type PublicEndpoint, definePublicEndpoint } from './public-endpoint';
import { TemplateListQuerySchema, TemplateListResponseSchema, TemplateParamsSchema, TemplateSchema } from './template.schema';

const TAG = 'Templates';

export const listTemplatesEndpoint = definePublicEndpoint({
  operationId: 'listTemplates',
  method: 'get',
  path: '/templates',
  summary: "List the business's message templates by name, language and uuid",
  description:
    'Optional filters, combined with AND: `channel` (public key), `category`, `status`. They are bound into the cursor: pass the same ones with `cursor`, otherwise 400 INVALID_CURSOR. Only `approved` templates can be sent.',
  tag: TAG,
  successStatus: 200,
  successDescription: 'One page of templates.',
  errorCodes: ['INVALID_CURSOR', 'CHANNEL_NOT_FOUND'],
  schemas: { query: TemplateListQuerySchema, response: TemplateListResponseSchema },
  requestExample: { query: { category: 'utility', status: 'approved', limit: '50' } },
});

export const getTemplateEndpoint = definePublicEndpoint({
  operationId: 'getTemplate',
  method: 'get',
  path: '/templates/:uuid',
  summary: 'One message template',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The template.',
  errorCodes: ['TEMPLATE_NOT_FOUND'],
  schemas: { params: TemplateParamsSchema, response: TemplateSchema },
});

export const TEMPLATE_ENDPOINTS: readonly PublicEndpoint[] = [listTemplatesEndpoint, getTemplateEndpoint];
