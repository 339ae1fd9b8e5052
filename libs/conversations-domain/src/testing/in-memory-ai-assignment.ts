import type { BusinessScope } from '@cmsg/dal';
import type { AiAssignmentPorts } from '../ai-assignment/ai-assignment-ports';
import { InMemoryAiEmployees } from './in-memory-ai-employees';
import { InMemoryConversationChanges } from './in-memory-conversation-changes';
import { InMemoryConversationLookup } from './in-memory-conversations';
import { InMemorySchedules } from './in-memory-schedules';
import { RecordingOutbox } from './recording-outbox';

/** Everything AiAssignmentPorts reads and writes, in memory, on one clock. */
export class InMemoryAiAssignment {
  readonly lookup = new InMemoryConversationLookup();
  readonly changes = new InMemoryConversationChanges(this.lookup);
  readonly aiEmployees = new InMemoryAiEmployees();
  readonly schedules = new InMemorySchedules();
  readonly outbox = new RecordingOutbox();
  /** Channel id -> the id of its default scheduled template. */
  readonly defaultTemplates = new Map<string, string>();

  constructor(private readonly now: Date) {}

  ports(): AiAssignmentPorts {
    return {
      lookup: this.lookup,
      aiEmployees: this.aiEmployees,
      owners: this.changes,
      schedules: this.schedules,
      defaultScheduledTemplate: async (_scope: BusinessScope, channelId: string) => this.defaultTemplates.get(channelId) ?? null,
      inboxStatus: this.changes,
      outbox: this.outbox,
      clock: () => this.now,
    };
  }
}
