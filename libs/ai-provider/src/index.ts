export { AiProvider } from './ai-provider';
export type {
  AiProviderConfig,
  AiUsage,
  CompletionRequest,
  CompletionResult,
  TranscriptionOptions,
  DescribeImageOptions,
  AudioInput,
} from './ai-provider';
export { chatMessagesFor, INTERNAL_NOTE_PREFIX } from './timeline-messages';
export type { TimelineEntry, TimelineRole } from './timeline-messages';
