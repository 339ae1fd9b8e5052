import { buildOpenApiDocument } from '@cmsg/api-schemas';
import { documentValidator, pointer } from './openapi-validator';

/**
 * Every example the document gives (request bodies, query and header parameters, webhook event
 * bodies) is valid by the schema it illustrates, as a standard JSON Schema validator reads it:
 * an integrator who copies one sends something the API accepts.
 */
const document = buildOpenApiDocument();
const validator = documentValidator(document);

type Operation = {
  parameters?: { name: string; in: string; example?: unknown }[];
  requestBody?: { content: Record<string, { schema?: unknown; example?: unknown }> };
};

const sections = { paths: document.paths ?? {}, webhooks: document.webhooks ?? {} } as unknown as Record<string, Record<string, Record<string, Operation>>>;

const examples = Object.entries(sections).flatMap(([section, items]) =>
  Object.entries(items).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) => {
      const base = `/${section}/${pointer(path)}/${method}`;
      const bodies = Object.entries(operation.requestBody?.content ?? {})
        .filter(([mediaType, media]) => media.example !== undefined && mediaType.includes('json'))
        .map(([mediaType, media]) => [`${method} ${path} body`, `${base}/requestBody/content/${pointer(mediaType)}/schema`, media.example] as const);
      const parameters = (operation.parameters ?? [])
        .map((parameter, index) => [parameter, index] as const)
        .filter(([parameter]) => parameter.example !== undefined)
        .map(([parameter, index]) => [`${method} ${path} ${parameter.in} ${parameter.name}`, `${base}/parameters/${index}/schema`, parameter.example] as const);
      return [...bodies, ...parameters];
    }),
  ),
);

describe('the examples of the OpenAPI document', () => {
  it('has examples of request bodies, parameters and webhook events', () => {
    expect(examples.filter(([name]) => name.endsWith(' body')).length).toBeGreaterThan(35);
    expect(examples.filter(([name]) => name.includes(' query ')).length).toBeGreaterThan(3);
  });

  it.each(examples.map(([name, at, example]) => [name, at, example]))('%s: valid by its schema', (_name, at, example) => {
    const schema = validator.schemaAt(at as string);
    expect(schema.isValid(example) ? 'valid' : schema.errors()).toBe('valid');
  });
});
