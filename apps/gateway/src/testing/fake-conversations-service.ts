import { API_TOKEN_SCOPES } from '@cmsg/api-schemas';
import { CatalogError } from '@cmsg/errors';
import { type Logger, currentRequestId } from '@cmsg/platform';
import { type AsyncUnaryImplementation, adaptUnaryService, bindGrpcServer } from '@cmsg/platform/grpc';
import {
  type AuthenticatedToken,
  type ConversationStatus,
  type ConversationsServiceServer,
  ConversationsServiceService,
} from '@cmsg/proto';
import { Server } from '@grpc/grpc-js';
import { createHash } from 'node:crypto';

export const TEST_TOKEN = `cmsg_${'ab'.repeat(32)}`;
export const OTHER_TOKEN = `cmsg_${'cd'.repeat(32)}`;
export const TEST_BUSINESS: AuthenticatedToken = {
  business_id: 'business-1',
  business_slug: 'acme',
  token_uuid: '0f0e0d0c-0b0a-4909-8807-060504030201',
  scopes: [...API_TOKEN_SCOPES],
};
export const KNOWN_CONVERSATION_UUID = '11111111-2222-4333-8444-555555555555';

export interface RecordedCall {
  method: keyof ConversationsServiceServer;
  request: unknown;
  requestId: string | undefined;
}

type Implementation = AsyncUnaryImplementation<ConversationsServiceServer>;

export function snapshotOfKnownConversation(): ConversationStatus {
  return {
    conversation: { uuid: KNOWN_CONVERSATION_UUID, phone: '5215512345678', chat_user_id: undefined },
    window: { status: 'open', expires_at: undefined, hours_remaining: 3.5 },
    assignment: { ai_employee: undefined },
    mailbox: { uuid: '99999999-8888-4777-8666-555555555555', name: 'Sales' },
    tags: [{ uuid: '12121212-3434-4565-8787-909090909090', name: 'vip', color: '#ff0000' }],
    inbox_status: 'pending',
    last_message: undefined,
    is_tester: false,
    tester_virtual_now: undefined,
  };
}

function sha256(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A test double of our ConversationsService on a real in-process grpc-js server: canned answers,
 * catalog errors raised the way the real service raises them, every call recorded.
 */
export class FakeConversationsService {
  readonly calls: RecordedCall[] = [];
  readonly tokens = new Map<string, AuthenticatedToken>([[sha256(TEST_TOKEN), TEST_BUSINESS]]);
  /** Replace one method's behaviour in a test. */
  readonly overrides: Partial<Implementation> = {};
  private server: Server | undefined;

  /** Another token of the test business, holding only these scopes. */
  addToken(token: string, scopes: readonly string[]): void {
    this.tokens.set(sha256(token), { ...TEST_BUSINESS, scopes: [...scopes] });
  }

  revoke(token: string): void {
    this.tokens.delete(sha256(token));
  }

  /** As started: no calls, no overrides, only the test token. */
  reset(): void {
    this.calls.length = 0;
    for (const method of Object.keys(this.overrides) as (keyof Implementation)[]) delete this.overrides[method];
    this.tokens.clear();
    this.tokens.set(sha256(TEST_TOKEN), TEST_BUSINESS);
  }

  callsOf(method: keyof ConversationsServiceServer): RecordedCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  async start(logger: Logger): Promise<string> {
    this.server = new Server();
    this.server.addService(ConversationsServiceService, adaptUnaryService<ConversationsServiceServer>(this.recording(this.defaults()), logger));
    const port = await bindGrpcServer(this.server, '127.0.0.1:0');
    return `127.0.0.1:${port}`;
  }

  stop(): void {
    this.server?.forceShutdown();
  }

  private recording(defaults: Implementation): Implementation {
    const recorded = {} as Record<string, (request: unknown) => Promise<unknown>>;
    for (const method of Object.keys(defaults) as (keyof Implementation)[]) {
      recorded[method] = async (request: unknown) => {
        this.calls.push({ method, request, requestId: currentRequestId() });
        const handler = (this.overrides[method] ?? defaults[method]) as (request: unknown) => Promise<unknown>;
        return handler(request);
      };
    }
    return recorded as unknown as Implementation;
  }

  private defaults(): Implementation {
    const resolve = (uuid: string | undefined) => {
      if (uuid !== KNOWN_CONVERSATION_UUID) throw new CatalogError('CONVERSATION_NOT_FOUND');
      return { uuid };
    };
    return {
      authenticateToken: async ({ token_sha256 }) => {
        const token = this.tokens.get(token_sha256);
        if (!token) throw new CatalogError('INVALID_API_TOKEN');
        return token;
      },
      getConversationStatus: async ({ conversation }) => {
        resolve(conversation?.uuid);
        return snapshotOfKnownConversation();
      },
      addNote: async ({ conversation }) => ({
        conversation: resolve(conversation?.uuid),
        note: { uuid: '77777777-6666-4555-8444-333333333333', created_at: '2025-01-31T18:04:05.000Z' },
      }),
      markPending: async ({ conversation }) => ({ conversation: resolve(conversation?.uuid), inbox_status: 'pending' }),
      markResolved: async ({ conversation }) => ({ conversation: resolve(conversation?.uuid), inbox_status: 'resolved' }),
      listConversations: async () => ({ items: [], next_cursor: '', has_more: false }),
      listContacts: async () => ({ items: [], next_cursor: '', has_more: false }),
      listChannels: async () => ({ items: [] }),
      getConversationTimeline: async ({ conversation_uuid }) => {
        resolve(conversation_uuid);
        return { items: [], next_cursor: '', has_more: false };
      },
      listEvents: async () => ({ items: [], next_cursor: '', has_more: false }),
      getEvent: async ({ id }) => {
        throw new CatalogError('EVENT_NOT_FOUND', `No event ${id} in this business in the last 30 days.`);
      },
      upsertContact: async () => {
        throw new CatalogError('CONTACT_IDENTIFIER_CONFLICT');
      },
      getContact: async () => {
        throw new CatalogError('CONTACT_NOT_FOUND');
      },
      patchContact: async () => {
        throw new CatalogError('CONTACT_NOT_FOUND');
      },
      eraseContact: async () => {
        throw new CatalogError('CONTACT_NOT_FOUND');
      },
      getContactEligibility: async () => {
        throw new CatalogError('CONTACT_NOT_FOUND');
      },
      searchContacts: async () => ({ items: [], next_cursor: '', has_more: false }),
      defineContactAttribute: async () => {
        throw new CatalogError('ATTRIBUTE_ALREADY_DEFINED');
      },
      listContactAttributes: async () => ({ items: [] }),
      deleteContactAttribute: async () => {
        throw new CatalogError('ATTRIBUTE_UNDEFINED');
      },
      listTemplates: async () => ({ items: [], next_cursor: '', has_more: false }),
      getTemplate: async ({ uuid }) => {
        throw new CatalogError('TEMPLATE_NOT_FOUND', `No template ${uuid} in this business.`);
      },
      updateChannelLimits: async ({ public_key }) => {
        throw new CatalogError('CHANNEL_NOT_FOUND', `No channel ${public_key} in this business.`);
      },
    };
  }
}
