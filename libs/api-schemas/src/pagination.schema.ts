import { z } from './zod';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

export const CursorSchema = z
  .string()
  .min(1)
  .max(512)
  .openapi({ description: 'Opaque and signed: the next_cursor of the previous page of the same endpoint, sort and filters. An altered cursor, one older than 24 h, or one sent with other filters or sort is 400 INVALID_CURSOR.' });

/** Query values arrive as strings; `limit` is coerced before its range is checked. */
export const PageSizeSchema = z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE);

export const PaginationQuerySchema = z.object({ cursor: CursorSchema.optional(), limit: PageSizeSchema });

/** `{ items, next_cursor, has_more }`; next_cursor is "" when has_more is false (CONTRACT 3). */
export function pageOf<Item extends z.ZodType>(item: Item, refId: string) {
  return z
    .object({
      items: z.array(item),
      next_cursor: z.string().openapi({ description: 'Pass as cursor to get the next page; empty when has_more is false.' }),
      has_more: z.boolean(),
    })
    .openapi(refId);
}

export type PaginationQuery = z.infer<typeof PaginationQuerySchema>;
