import { z } from 'zod';

/**
 * Parses process.env once at boot against an app's schema and fails fast with every problem listed.
 * The only place in the repo that reads process.env for configuration.
 */
export function loadConfig<Shape extends z.ZodRawShape>(shape: Shape, env: NodeJS.ProcessEnv = process.env): z.infer<z.ZodObject<Shape>> {
  const result = z.object(shape).safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return result.data;
}

/** An integer variable with its default: at least `min` (1 unless said: counts, sizes, periods), at most `max` when given. */
export function intVar(fallback: number, bounds: { min?: number; max?: number } = {}) {
  const atLeast = z.coerce.number().int().min(bounds.min ?? 1);
  return (bounds.max === undefined ? atLeast : atLeast.max(bounds.max)).default(fallback);
}

/** A switch: true or false (1 or 0 too), with its default. */
export function booleanVar(fallback: 'true' | 'false') {
  return z
    .enum(['true', 'false', '1', '0'], { message: 'expected true or false' })
    .default(fallback)
    .transform((value) => value === 'true' || value === '1');
}

/** Reusable variable definitions (CONTRACT section 0). */
export const configVars = {
  mongodbUri: z.string().default('mongodb://127.0.0.1:27117/cmsg'),
  // A directory the process appends the shape of each distinct MongoDB query to (the integration suite's index check).
  mongoShapeLog: z.string().min(1).optional(),
  kafkaBrokers: z
    .string()
    .default('127.0.0.1:19092')
    .transform((value) => value.split(',').map((broker) => broker.trim()).filter(Boolean)),
  kafkaTopicPrefix: z.string().default(''),
  redisUrl: z.string().default('redis://127.0.0.1:16379'),
  port: (fallback: number) => intVar(fallback, { min: 0, max: 65535 }),
  /** Prometheus /metrics of the app (0: none). */
  metricsPort: (fallback: number) => intVar(fallback, { min: 0, max: 65535 }),
  grpcAddress: (fallback: string) => z.string().default(fallback),
  /** A plaintext port serving grpc.health.v1 only, for probes that cannot speak TLS; none when unset. */
  grpcHealthAddress: z.string().min(1).optional(),
  signingSecret: z.string().min(16).default('dev-only-signing-secret-change-me'),
  publicBaseUrl: z.string().url().default('http://127.0.0.1:8080'),
  chatApiBaseUrl: z.string().url().default('https://graph.facebook.com/v21.0'),
  chatAppSecret: z.string().default('dev-only-chat-app-secret'),
  chatVerifyToken: z.string().default('dev-only-verify-token'),
  aiBaseUrl: z.string().url().default('https://api.openai.com/v1'),
  aiApiKey: z.string().default('not-set'),
  rateLimitPerMinute: intVar(60),
  otelEndpoint: z.string().url().optional(),
  shutdownGraceMs: intVar(25000, { min: 0 }),
  /** gRPC servers: each client connection is closed after about this long (0: never), so clients resolve their target again (grpc-server-options.ts). */
  grpcMaxConnectionAgeMs: intVar(0, { min: 0 }),
  /** Webhook endpoints on http and loopback/private hosts (tests, local demos); a public host still needs https. */
  webhookAllowPrivateUrls: booleanVar('false'),
};
