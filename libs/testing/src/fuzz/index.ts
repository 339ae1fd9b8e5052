export { arbitraryFor } from './json-schema-arbitrary';
export type { JsonSchema, SchemaArbitraryOptions } from './json-schema-arbitrary';
export { documentValidator } from './openapi-validator';
export type { DocumentedSchema } from './openapi-validator';
