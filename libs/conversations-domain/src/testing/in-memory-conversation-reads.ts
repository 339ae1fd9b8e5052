import type { ConversationListPorts } from '../inbox/list-conversations.usecase';
import type { ConversationStatusPorts } from '../inbox/get-conversation-status.usecase';
import { InMemoryAiEmployees } from './in-memory-ai-employees';
import { InMemoryBusinesses } from './in-memory-businesses';
import { InMemoryConversationPages } from './in-memory-conversation-pages';
import { InMemoryConversationLookup } from './in-memory-conversations';
import { InMemoryMailboxDirectory } from './in-memory-mailboxes';
import { InMemoryTags } from './in-memory-tags';

/** What the conversation list and status read, in memory: the conversations, the business, the names their rows point to. */
export class InMemoryConversationReads {
  readonly lookup = new InMemoryConversationLookup();
  readonly businesses = new InMemoryBusinesses();
  readonly tags = new InMemoryTags();
  readonly mailboxes = new InMemoryMailboxDirectory();
  readonly aiEmployees = new InMemoryAiEmployees();

  listPorts(): ConversationListPorts {
    return { conversations: new InMemoryConversationPages(this.lookup), businesses: this.businesses, references: this.references() };
  }

  statusPorts(): ConversationStatusPorts {
    return { lookup: this.lookup, businesses: this.businesses, references: this.references() };
  }

  private references(): ConversationStatusPorts['references'] {
    return { tags: this.tags, mailboxes: this.mailboxes.mailboxes, aiEmployees: this.aiEmployees };
  }
}
