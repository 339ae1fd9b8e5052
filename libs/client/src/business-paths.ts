import type { paths } from './generated/openapi';

type WithoutSlug<Parameters> = Parameters extends { path: infer Path }
  ? keyof Omit<Path, 'slug'> extends never
    ? Omit<Parameters, 'path'> & { path?: never }
    : Omit<Parameters, 'path'> & { path: Omit<Path, 'slug'> }
  : Parameters;

type BusinessOperation<Operation> = Operation extends { parameters: infer Parameters } ? Omit<Operation, 'parameters'> & { parameters: WithoutSlug<Parameters> } : Operation;

type BusinessPathItem<Item> = { [Key in keyof Item]: Key extends 'parameters' ? Item[Key] : BusinessOperation<Item[Key]> };

/**
 * The business endpoints, by their path below `/v1/{slug}` and without the slug parameter: the
 * client is bound to one business, as a token is.
 */
export type BusinessPaths = {
  [Path in keyof paths as Path extends `/v1/{slug}${infer Below}` ? Below : never]: BusinessPathItem<paths[Path]>;
};

/** The routes outside the business scope (health, readiness, the document, signed file URLs). */
export type GatewayPaths = {
  [Path in keyof paths as Path extends `/v1/{slug}${string}` ? never : Path]: paths[Path];
};
