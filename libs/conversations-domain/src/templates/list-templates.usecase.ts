import { TEMPLATE_CATEGORIES, TEMPLATE_STATUSES } from '@cmsg/api-schemas';
import type { BusinessScope, TemplateListPosition } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { ListTemplatesResponse } from '@cmsg/proto';
import type { ListCursorCodec } from '../listing/list-cursor';
import type { TemplateDependencies } from './template-ports';
import { toTemplateMessage } from './template-view';

export const TEMPLATES_ENDPOINT = 'templates';

export interface ListTemplatesRequest {
  cursor?: string;
  limit: number;
  /** A channel public key. */
  channel?: string;
  category?: string;
  status?: string;
}

/**
 * CONTRACT 10.3: by (name, language, uuid), so one template's languages sit together and a caller
 * picks by name. The filters are bound into the cursor: a cursor used with others is INVALID_CURSOR.
 */
export async function listTemplates(dependencies: TemplateDependencies, scope: BusinessScope, codec: ListCursorCodec, request: ListTemplatesRequest): Promise<ListTemplatesResponse> {
  assertOneOf('category', request.category, TEMPLATE_CATEGORIES);
  assertOneOf('status', request.status, TEMPLATE_STATUSES);
  const channelFilter = request.channel === undefined ? undefined : await dependencies.channels.findByPublicKey(scope, request.channel);
  if (request.channel !== undefined && !channelFilter) throw new CatalogError('CHANNEL_NOT_FOUND', `No channel ${request.channel} in this business.`);

  const filters = { channel: request.channel, category: request.category, status: request.status };
  const after = request.cursor === undefined ? undefined : positionOf(codec.decode(request.cursor, TEMPLATES_ENDPOINT, 'asc', filters).id);
  const rows = await dependencies.templates.listPage(scope, {
    channelId: channelFilter?._id,
    category: request.category,
    status: request.status,
    after,
    limit: request.limit + 1,
  });
  const hasMore = rows.length > request.limit;
  const page = hasMore ? rows.slice(0, request.limit) : rows;
  const last = page[page.length - 1];

  const channels = await dependencies.channels.findByIds(scope, page.map((template) => template.channel_id));
  const keyOf = new Map(channels.map((channel) => [channel._id, channel.public_key]));
  return {
    items: page.map((template) => toTemplateMessage(template, keyOf.get(template.channel_id) ?? '')),
    has_more: hasMore,
    next_cursor: hasMore && last ? codec.encode(TEMPLATES_ENDPOINT, 'asc', { sortAt: 0, id: positionKey({ name: last.name, language: last.language, id: last._id }) }, filters) : '',
  };
}

function assertOneOf(field: string, value: string | undefined, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value)) throw new CatalogError('INVALID_REQUEST', `${field} must be one of ${allowed.join(', ')}.`);
}

/** The cursor's codec keeps one string tie-breaker: the whole (name, language, uuid) key goes in it. */
function positionKey(position: TemplateListPosition): string {
  return JSON.stringify([position.name, position.language, position.id]);
}

function positionOf(key: string): TemplateListPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || !parsed.every((part) => typeof part === 'string')) {
    throw new CatalogError('INVALID_CURSOR', 'The cursor is invalid, or belongs to another endpoint, sort order or set of filters.');
  }
  const [name, language, id] = parsed as [string, string, string];
  return { name, language, id };
}
