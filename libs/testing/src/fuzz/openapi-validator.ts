import { type PublicEndpoint, WELL_FORMED_UNICODE_FORMAT, isWellFormedUnicode, openApiPathOf } from '@cmsg/api-schemas';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './json-schema-arbitrary';

const DOCUMENT_ID = 'urn:cmsg:openapi';

interface OperationLike {
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface DocumentedSchema {
  schema: JsonSchema;
  isValid(value: unknown): boolean;
  /** The last validation's errors, for a failure message. */
  errors(): string;
}

/** JSON Pointer of a path segment (RFC 6901). */
export const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Validates values against the schemas of an OpenAPI 3.1 document as a standard JSON Schema 2020-12
 * validator reads them (Ajv with its formats), so a check means what it means to outside tools.
 */
export function documentValidator(document: object) {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  // The document's own format, as its description defines it.
  ajv.addFormat(WELL_FORMED_UNICODE_FORMAT, { type: 'string', validate: isWellFormedUnicode });
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const paths = (document as { paths: Record<string, Record<string, OperationLike>> }).paths;

  const compile = (jsonPointer: string, schema: JsonSchema): DocumentedSchema => {
    const validate = ajv.getSchema(`${DOCUMENT_ID}#${jsonPointer}`);
    if (!validate) throw new Error(`no schema at ${jsonPointer}`);
    return { schema, isValid: (value) => validate(value) as boolean, errors: () => ajv.errorsText(validate.errors) };
  };

  return {
    resolve(ref: string): JsonSchema {
      if (!ref.startsWith('#/')) throw new Error(`only local references are expected, got ${ref}`);
      return ref
        .slice(2)
        .split('/')
        .reduce<any>((node, segment) => node?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')], document) as JsonSchema;
    },

    /** The schema at a JSON Pointer into the document (`/paths/~1healthz/get/...`). */
    schemaAt(jsonPointer: string): DocumentedSchema {
      return compile(jsonPointer, this.resolve(`#${jsonPointer}`));
    },

    /** The documented JSON request body of a public endpoint. */
    requestBody(endpoint: PublicEndpoint): DocumentedSchema {
      const path = `/v1/{slug}${openApiPathOf(endpoint.path)}`;
      const schema = paths[path]?.[endpoint.method]?.requestBody?.content?.['application/json']?.schema;
      if (!schema) throw new Error(`${endpoint.operationId}: no documented JSON request body at ${endpoint.method} ${path}`);
      return compile(`/paths/${pointer(path)}/${endpoint.method}/requestBody/content/application~1json/schema`, schema);
    },

    /** The documented JSON body of one response of an operation (by path as documented). */
    responseBody(path: string, method: string, status: string): DocumentedSchema | undefined {
      const schema = paths[path]?.[method]?.responses?.[status]?.content?.['application/json']?.schema;
      return schema ? compile(`/paths/${pointer(path)}/${method}/responses/${status}/content/application~1json/schema`, schema) : undefined;
    },
  };
}
