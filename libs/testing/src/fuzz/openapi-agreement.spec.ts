import { PUBLIC_ENDPOINTS, buildOpenApiDocument } from '@cmsg/api-schemas';
import fc from 'fast-check';
import { documentValidator } from './openapi-validator';
import { arbitraryFor } from './json-schema-arbitrary';

/**
 * The OpenAPI document says exactly what the API accepts: for every operation with a body, bodies
 * generated from its documented schema (inside and around every rule) are valid by the document
 * if and only if the gateway's validation accepts them. Generated clients and fuzzers trust the
 * document, so a body it admits must not be refused, and the other way round.
 */
const document = buildOpenApiDocument();
const validator = documentValidator(document);
const SEED = Number(process.env['CMSG_FUZZ_SEED'] ?? 20261125);
const RUNS = Number(process.env['CMSG_AGREEMENT_RUNS'] ?? 400);

function acceptedByValidation(schema: { safeParse(value: unknown): { success: boolean } }, body: unknown): boolean {
  try {
    return schema.safeParse(body).success;
  } catch {
    // A rule that answers with a catalog error before the schema (the action group limits) refuses too.
    return false;
  }
}

describe('the OpenAPI document and request validation agree', () => {
  const withBody = PUBLIC_ENDPOINTS.filter((endpoint) => endpoint.schemas.body !== undefined);

  it('covers every operation with a request body', () => {
    expect(withBody.length).toBeGreaterThan(10);
  });

  it.each(withBody.map((endpoint) => [endpoint.operationId, endpoint] as const))('%s: documented valid if and only if accepted', (_name, endpoint) => {
    const requestBody = validator.requestBody(endpoint);
    const bodySchema = endpoint.schemas.body!;
    fc.assert(
      fc.property(arbitraryFor(requestBody.schema, { resolve: validator.resolve, offSchemaRate: 0.03 }), (body) => {
        const documented = requestBody.isValid(body);
        const accepted = acceptedByValidation(bodySchema, body);
        if (documented !== accepted) {
          throw new Error(`${documented ? 'documented as valid but refused' : 'accepted but documented as invalid'}: ${JSON.stringify(body)}${documented ? '' : `\n${requestBody.errors()}`}`);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
