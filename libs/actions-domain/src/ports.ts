import type { AiProvider } from '@cmsg/ai-provider';
import type {
  AddNoteRequest,
  ApplyChangesRequest,
  ApplyChangesResponse,
  AddNoteResponse,
  AiEmployee,
  ConversationChangeHandlers,
  ChargeAiWalletRequest,
  ChargeAiWalletResponse,
  ConversationContext,
  ConversationRequest,
  EscalateRequest,
  InboxStatusResponse,
  RecentTimeline,
  RecentTimelineRequest,
  ResolveAiEmployeeRequest,
  ResolveConversationRequest,
  ResolveConversationResponse,
  SendMessageRequest,
  SendMessageResponse,
} from '@cmsg/proto';
import type { ConversationCommand } from './action-group/conversation-command';

type Rpc<Request, Response> = (request: Request) => Promise<Response>;

/**
 * The conversation RPCs this domain calls (ConversationActionsService). Failures arrive as
 * catalog errors; the app wires gRPC clients in, tests wire doubles.
 */
export interface ConversationActionsPort extends Pick<ConversationChangeHandlers, 'assignTags' | 'removeTags' | 'assignMailbox' | 'assignAiEmployee' | 'unassignAi'> {
  /** Consecutive changes of an action group in one call, each as its own RPC applies it. */
  applyChanges: Rpc<ApplyChangesRequest, ApplyChangesResponse>;
  sendMessage: Rpc<SendMessageRequest, SendMessageResponse>;
  escalate: Rpc<EscalateRequest, InboxStatusResponse>;
  resolveConversation: Rpc<ResolveConversationRequest, ResolveConversationResponse>;
  getConversationContext: Rpc<ConversationRequest, ConversationContext>;
  getRecentTimeline: Rpc<RecentTimelineRequest, RecentTimeline>;
  resolveAiEmployee: Rpc<ResolveAiEmployeeRequest, AiEmployee>;
  chargeAiWallet: Rpc<ChargeAiWalletRequest, ChargeAiWalletResponse>;
}

/** The existing ConversationsService RPCs the actions reuse. */
export interface ConversationsPort {
  addNote: Rpc<AddNoteRequest, AddNoteResponse>;
  markPending: Rpc<ConversationRequest, InboxStatusResponse>;
  markResolved: Rpc<ConversationRequest, InboxStatusResponse>;
}

export interface ConversationServices {
  actions: ConversationActionsPort;
  conversations: ConversationsPort;
}

export type AiCompletionPort = Pick<AiProvider, 'complete'>;

/** The per-conversation command stream (key = conversation uuid). */
export interface CommandPublisher {
  submit(conversationUuid: string, command: ConversationCommand): Promise<void>;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
