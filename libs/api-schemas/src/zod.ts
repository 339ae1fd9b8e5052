import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Every schema file takes `z` from here, so `.openapi()` exists before any schema is built.
extendZodWithOpenApi(z);

export { z };

/**
 * JSON Schema 2020-12 keywords for the OpenAPI 3.1 document that zod-to-openapi's metadata type does
 * not name (dependentRequired, contains, maxContains...): spread into `.openapi({...})`.
 */
export function jsonSchemaKeywords(keywords: Record<string, unknown>): object {
  return keywords;
}
