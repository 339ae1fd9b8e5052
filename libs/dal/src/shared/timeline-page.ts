/**
 * A stretch of a conversation's timeline (its messages, or its notes and events), read in
 * timeline order (created_at, then _id): where it starts as a keyset condition ({} from either
 * end), its direction (1 oldest first, -1 newest first) and its size.
 */
export interface TimelinePage {
  after: Record<string, unknown>;
  direction: 1 | -1;
  limit: number;
}
