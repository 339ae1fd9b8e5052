import { AiEmployeeReferenceSchema, ScheduledMessageActionSchema } from './ai-assignment.schema';
import { UuidSchema } from './common.schema';
import { MailboxCategoryReferenceSchema, MailboxReferenceSchema } from './conversation-mailbox.schema';
import { MAX_TAGS_PER_REQUEST, TagReferenceSchema } from './conversation-tags.schema';
import { NoteTextSchema } from './notes.schema';
import {
  MessageTextSchema,
  QuickReplyReferenceSchema,
  TEMPLATE_REFERENCE_MESSAGE,
  TranscriptionSchema,
  isCompleteTemplateReference,
  templateParameterFields,
  templateReferenceFields,
} from './message-content.schema';
import { jsonSchemaKeywords, z } from './zod';
import { requiredText } from './text.schema';

/*
 * The 12 action objects of an action group (SPEC 4.3, CONTRACT 4), one schema each. The gateway
 * validates requests with them and the actions-runner validates every action of a command with
 * them again, so an action is valid whoever submits it.
 */

/** A template to send: `{uuid}` or `{name, language}` plus its parameters, in one object. */
export const ActionTemplateSchema = z
  .object({ ...templateReferenceFields, ...templateParameterFields })
  .refine(isCompleteTemplateReference, { message: TEMPLATE_REFERENCE_MESSAGE })
  .openapi('ActionTemplate', { anyOf: [{ required: ['uuid'] }, { required: ['name', 'language'] }] });

export const SendMessageActionSchema = z
  .object({
    type: z.literal('send_message'),
    text: MessageTextSchema.optional().openapi({ description: 'The message, or the caption of `file_uuid`.' }),
    file_uuid: UuidSchema.optional(),
    transcription: TranscriptionSchema.optional().openapi({ description: 'What the media says, when it cannot be transcribed.' }),
    quick_reply: QuickReplyReferenceSchema.optional(),
    template: ActionTemplateSchema.optional(),
  })
  .superRefine((action, ctx) => {
    const kinds = [action.file_uuid ?? action.text, action.quick_reply, action.template].filter((kind) => kind !== undefined).length;
    if (kinds !== 1) ctx.addIssue({ code: 'custom', message: 'exactly one of text, file_uuid, quick_reply, template is required' });
    if (action.transcription !== undefined && action.file_uuid === undefined) {
      ctx.addIssue({ code: 'custom', path: ['transcription'], message: 'only allowed with file_uuid' });
    }
  })
  .openapi('SendMessageAction', {
    description: 'One of: `text`; `file_uuid` (+ `text` caption, `transcription`); `quick_reply`; `template`.',
    oneOf: [{ anyOf: [{ required: ['text'] }, { required: ['file_uuid'] }] }, { required: ['quick_reply'] }, { required: ['template'] }],
    ...jsonSchemaKeywords({ dependentRequired: { transcription: ['file_uuid'] } }),
  });

export const SendQuickReplyOrTemplateActionSchema = z
  .object({ type: z.literal('send_quick_reply_or_template'), quick_reply: QuickReplyReferenceSchema, template: ActionTemplateSchema })
  .openapi('SendQuickReplyOrTemplateAction', { description: 'Deprecated: the quick reply while the 24 h window is open, else the template.' });

const TagRefsSchema = z.array(TagReferenceSchema).min(1).max(MAX_TAGS_PER_REQUEST);

export const AssignLabelActionSchema = z.object({ type: z.literal('assign_label'), tags: TagRefsSchema }).openapi('AssignLabelAction');

export const RemoveLabelActionSchema = z.object({ type: z.literal('remove_label'), tags: TagRefsSchema }).openapi('RemoveLabelAction');

export const AssignMailboxActionSchema = z
  .object({ type: z.literal('assign_mailbox'), mailbox: MailboxReferenceSchema.optional(), category: MailboxCategoryReferenceSchema.optional() })
  .refine((action) => (action.mailbox === undefined) !== (action.category === undefined), { message: 'exactly one of mailbox, category is required' })
  .openapi('AssignMailboxAction', { description: 'A mailbox, or a category (its first mailbox by name).', oneOf: [{ required: ['mailbox'] }, { required: ['category'] }] });

export const ContextNoteActionSchema = z.object({ type: z.literal('context_note'), note: NoteTextSchema }).openapi('ContextNoteAction');

export const MarkResolvedActionSchema = z.object({ type: z.literal('mark_resolved') }).openapi('MarkResolvedAction');

export const MarkPendingActionSchema = z.object({ type: z.literal('mark_pending') }).openapi('MarkPendingAction');

export const RunAiActionSchema = z
  .object({ type: z.literal('run_ai'), ai_employee: AiEmployeeReferenceSchema.optional() })
  .openapi('RunAiAction', { description: 'Runs the given AI employee, or the assigned one.' });

export const AiPromptSchema = requiredText(4000);

export const AiAssistanceActionSchema = z
  .object({ type: z.literal('ai_assistance'), ai_employee: AiEmployeeReferenceSchema, prompt: AiPromptSchema })
  .openapi('AiAssistanceAction', { description: 'A one-off question to an AI employee; the answer lands as a context note.' });

export const AssignAiEmployeeActionSchema = z
  .object({
    type: z.literal('assign_ai_employee'),
    ai_employee: AiEmployeeReferenceSchema,
    run: z.boolean().default(false),
    scheduled_message_action: ScheduledMessageActionSchema,
  })
  .openapi('AssignAiEmployeeAction');

export const UnassignAiActionSchema = z
  .object({ type: z.literal('unassign_ai'), scheduled_message_action: ScheduledMessageActionSchema })
  .openapi('UnassignAiAction');

export const ActionSchema = z
  .discriminatedUnion('type', [
    SendMessageActionSchema,
    SendQuickReplyOrTemplateActionSchema,
    AssignLabelActionSchema,
    RemoveLabelActionSchema,
    AssignMailboxActionSchema,
    ContextNoteActionSchema,
    MarkResolvedActionSchema,
    MarkPendingActionSchema,
    RunAiActionSchema,
    AiAssistanceActionSchema,
    AssignAiEmployeeActionSchema,
    UnassignAiActionSchema,
  ])
  .openapi('Action');

export type ActionTemplate = z.infer<typeof ActionTemplateSchema>;
export type Action = z.infer<typeof ActionSchema>;
export type ActionType = Action['type'];
export type ActionOfType<Type extends ActionType> = Extract<Action, { type: Type }>;

export const ACTION_TYPES = ActionSchema.options.map((option) => option.shape.type.value) as readonly ActionType[];
