import { type ScheduleDeliveryPath, type ScheduledMessageCommand, scheduleHistoryEntry, scheduledOperationId } from '@cmsg/conversation-commands';
import { CatalogError, isCatalogError, toCatalogError } from '@cmsg/errors';
import { type BusinessScope, businessScope } from '@cmsg/dal';
import type { Logger } from '@cmsg/platform';
import type { Caller, MessageAuthor, SendMessageRequest, TemplateContent, TemplateHeader } from '@cmsg/proto';
import type { AiPipelines } from '../ai/ai-pipelines';
import { isTransientFailure } from '../action-group/failure-policy';
import { AI_RUN_BUDGET_MS } from '../limits';
import type { Clock, ConversationServices } from '../ports';
import type { FiredSchedule, FiredScheduleStore } from './fired-schedule.store';

export interface ScheduledMessagePorts {
  services: ConversationServices;
  ai: Pick<AiPipelines, 'run'>;
  store: FiredScheduleStore;
  clock: Clock;
  logger: Logger;
  aiBudgetMs?: number;
}

type Json = Record<string, unknown>;

/**
 * Runs a fired schedule (topic conversation-commands, kind scheduled_message), at most once
 * whatever number of copies of the command arrive and wherever a previous run stopped:
 *
 * - its fate (fire, unless a cancellation won it) and its outcome (sent | failed) are claims with
 *   one winner; a cancelled or finished schedule is left alone;
 * - AI branch: the reason becomes a context note (written once: its id derives from the schedule), then the AI
 *   replies while the 24 h window is open, else the fallback template (the schedule's, or the
 *   channel's default scheduled template) is sent;
 * - human branch: the literal payload while the window is open, else its template;
 * - the delivery path is decided once before anything is sent and every send or AI run carries an
 *   operation id derived from the schedule uuid, so a re-run replays instead of sending again.
 *
 * A dependency that does not answer (SERVICE_UNAVAILABLE) is rethrown for the stream to retry;
 * any other failure ends the schedule failed with its code.
 */
export async function executeFiredScheduledMessage(command: ScheduledMessageCommand, ports: ScheduledMessagePorts, signal?: AbortSignal): Promise<void> {
  const { store, clock, logger } = ports;
  const scope = businessScope(command.business_id);
  const schedule = await store.find(scope, command.schedule_uuid);
  if (!schedule) {
    logger.warn({ schedule_uuid: command.schedule_uuid }, 'scheduled message: command for an unknown schedule ignored');
    return;
  }
  const decisions = await store.decisions(scope, schedule._id, clock.now());
  if (decisions.fate === 'cancel') return;
  if (decisions.outcome) {
    // Finished by an earlier run (this is a copy of the command, or that run died before releasing).
    await store.releaseConversation(scope, schedule.conversation_id, schedule._id, clock.now());
    return;
  }

  const caller: Caller = { business_id: command.business_id, token_uuid: schedule.created_by_token_id ?? command.token_uuid };
  try {
    const messageUuid = await deliver(scope, schedule, decisions.deliveryPath, caller, ports, signal);
    await store.finish(scope, schedule._id, { status: 'sent', error: null }, scheduleHistoryEntry('sent', 'sent', clock.now(), { detail: messageUuid ? { message_uuid: messageUuid } : {} }));
  } catch (error) {
    if (signal?.aborted) throw error;
    const failure = toCatalogError(error);
    if (isTransientFailure(failure)) throw failure;
    if (failure.code === 'UNKNOWN_ERROR') logger.error({ err: error, schedule_uuid: schedule._id }, 'scheduled message failed unexpectedly');
    const recorded = { code: failure.code, message: failure.message };
    await store.finish(scope, schedule._id, { status: 'failed', error: recorded }, scheduleHistoryEntry('failed', 'failed', clock.now(), { detail: recorded }));
  }
  await store.releaseConversation(scope, schedule.conversation_id, schedule._id, clock.now());
  logger.info({ schedule_uuid: schedule._id, conversation_uuid: schedule.conversation_id }, 'scheduled message executed');
}

/** Dead-letter path: the command failed every attempt; the schedule ends failed (UPDATE_FAILED). */
export async function abandonFiredScheduledMessage(command: ScheduledMessageCommand, cause: unknown, ports: Pick<ScheduledMessagePorts, 'store' | 'clock'>): Promise<void> {
  const scope = businessScope(command.business_id);
  const reason = isCatalogError(cause) ? `${cause.code}: ${cause.message}` : String(cause);
  const error = { code: 'UPDATE_FAILED', message: `The scheduled message could not be sent after repeated attempts (${reason}).` };
  if (await ports.store.finish(scope, command.schedule_uuid, { status: 'failed', error }, scheduleHistoryEntry('failed', 'failed', ports.clock.now(), { detail: error }))) {
    await ports.store.releaseConversation(scope, command.conversation_uuid, command.schedule_uuid, ports.clock.now());
  }
}

/** Sends (or runs the AI) along the recorded path; answers the uuid of the message sent, when known. */
async function deliver(
  scope: BusinessScope,
  schedule: FiredSchedule,
  decidedPath: ScheduleDeliveryPath | null,
  caller: Caller,
  ports: ScheduledMessagePorts,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const { services, store, clock } = ports;
  const conversation = { uuid: schedule.conversation_id };
  if (schedule.executor_kind === 'ai_employee' && schedule.reason && !schedule.note_id) {
    const noteId = await store.addContextNote(scope, schedule, caller.token_uuid, clock.now());
    await store.recordNote(scope, schedule._id, noteId, scheduleHistoryEntry('note_added', 'firing', clock.now(), { detail: { note_uuid: noteId } }));
  }

  let path = decidedPath;
  let decidedNow = false;
  if (path === null) {
    const context = await services.actions.getConversationContext({ caller, conversation });
    const initial = initialPath(schedule.executor_kind, context.window_status === 'open');
    path = await decidePath(scope, schedule, 1, initial, ports);
    decidedNow = path === initial;
  }

  switch (path) {
    case 'ai_run':
      try {
        const result = await ports.ai.run({
          caller,
          conversationUuid: schedule.conversation_id,
          ...(schedule.ai_employee_id ? { employee: { uuid: schedule.ai_employee_id } } : {}),
          operationId: scheduledOperationId(schedule._id, 'ai_run'),
          budgetMs: ports.aiBudgetMs ?? AI_RUN_BUDGET_MS,
          ...(signal ? { signal } : {}),
        });
        return result.replyMessageUuid;
      } catch (error) {
        // The window closed between the decision and the run: nothing was sent, the fallback goes out.
        // (On a re-run the AI pipeline checks the window before it would replay its reply, so only a
        // decision taken in this run may switch.)
        if (!decidedNow || !isCatalogError(error) || error.code !== 'WINDOW_CLOSED') throw error;
        await decidePath(scope, schedule, 2, 'ai_fallback_template', ports);
        return sendAiFallbackTemplate(scope, schedule, caller, ports);
      }
    case 'ai_fallback_template':
      return sendAiFallbackTemplate(scope, schedule, caller, ports);
    case 'literal':
      try {
        return await send(ports, literalRequest(schedule, caller));
      } catch (error) {
        // A send answers WINDOW_CLOSED only before anything went out under its operation id.
        if (!isCatalogError(error) || error.code !== 'WINDOW_CLOSED') throw error;
        await decidePath(scope, schedule, 2, 'template', ports);
        return send(ports, templateRequest(schedule, caller));
      }
    case 'template':
      return send(ports, templateRequest(schedule, caller));
    default:
      throw new CatalogError('UPDATE_FAILED', `Unknown delivery path ${JSON.stringify(path)} recorded on the scheduled message.`);
  }
}

function initialPath(executorKind: string, windowOpen: boolean): ScheduleDeliveryPath {
  if (executorKind === 'ai_employee') return windowOpen ? 'ai_run' : 'ai_fallback_template';
  return windowOpen ? 'literal' : 'template';
}

/** The path of a stage is decided once; a run that lost the decision follows the winner's. */
function decidePath(scope: BusinessScope, schedule: FiredSchedule, stage: 1 | 2, path: ScheduleDeliveryPath, ports: ScheduledMessagePorts): Promise<ScheduleDeliveryPath> {
  return ports.store.decideDelivery(scope, schedule._id, stage, path, scheduleHistoryEntry('sending', 'firing', ports.clock.now(), { detail: { delivery: path } }));
}

async function sendAiFallbackTemplate(scope: BusinessScope, schedule: FiredSchedule, caller: Caller, ports: ScheduledMessagePorts): Promise<string | undefined> {
  const templateId = schedule.template_id ?? (await ports.store.defaultScheduledTemplateId(scope, schedule.conversation_id));
  if (!templateId) {
    throw new CatalogError('TEMPLATE_NOT_FOUND', "The 24-hour window is closed and there is no fallback template (none given, and the channel has no default scheduled template).");
  }
  return send(ports, {
    caller,
    conversation: { uuid: schedule.conversation_id },
    operation_id: scheduledOperationId(schedule._id, 'ai_fallback_template'),
    author: { type: 'ai_employee', uuid: schedule.ai_employee_id ?? undefined },
    template: { template: { uuid: templateId, name: undefined, language: undefined }, variables: [], header: undefined, button_parameters: [] },
  });
}

async function send(ports: ScheduledMessagePorts, request: SendMessageRequest): Promise<string | undefined> {
  const response = await ports.services.actions.sendMessage(request);
  return response.message?.uuid;
}

function authorOf(schedule: FiredSchedule, caller: Caller): MessageAuthor {
  return { type: 'api_token', uuid: schedule.author?.uuid ?? (caller.token_uuid || undefined) };
}

/** The human payload as it was scheduled (window open at firing). */
function literalRequest(schedule: FiredSchedule, caller: Caller): SendMessageRequest {
  const base = { caller, conversation: { uuid: schedule.conversation_id }, operation_id: scheduledOperationId(schedule._id, 'literal'), author: authorOf(schedule, caller) };
  const payload = (schedule.payload ?? {}) as Json;
  switch (payload['kind']) {
    case 'quick_reply':
      return { ...base, quick_reply: { uuid: String(payload['quick_reply_uuid']), name: undefined } };
    case 'template':
      return {
        ...base,
        template: templateContent(String(payload['template_uuid']), payload['variables'], payload['header'] as Json | undefined, payload['button_parameters']),
      };
    case 'message': {
      const text = typeof payload['text'] === 'string' ? payload['text'] : undefined;
      const media = payload['media'] as { file_uuid: string; transcription?: string | null } | null | undefined;
      // Files are linked through signed URLs made by the conversations service at send time (re-signed now).
      if (media) return { ...base, file: { file_uuid: media.file_uuid, caption: text, transcription: media.transcription ?? undefined } };
      return { ...base, text: { body: text ?? '' } };
    }
    default:
      throw new CatalogError('PREPARE_FAILED', `The scheduled payload has an unknown kind ${JSON.stringify(payload['kind'])}.`);
  }
}

/** The schedule's template (window closed at firing). */
function templateRequest(schedule: FiredSchedule, caller: Caller): SendMessageRequest {
  if (!schedule.template_id) throw new CatalogError('TEMPLATE_NOT_FOUND', 'The scheduled message has no template for a closed window.');
  return {
    caller,
    conversation: { uuid: schedule.conversation_id },
    operation_id: scheduledOperationId(schedule._id, 'template'),
    author: authorOf(schedule, caller),
    template: templateContent(schedule.template_id, schedule.template_variables, schedule.template_header ?? undefined, schedule.template_button_parameters),
  };
}

function templateContent(templateId: string, variables: unknown, header: Json | undefined, buttonParameters: unknown): TemplateContent {
  return {
    template: { uuid: templateId, name: undefined, language: undefined },
    variables: ((variables ?? []) as { index: number; value: string }[]).map((variable) => ({ index: variable.index, value: variable.value })),
    header: header ? headerOf(header) : undefined,
    button_parameters: ((buttonParameters ?? []) as { index: number; sub_type: string; value: string }[]).map((parameter) => ({
      index: parameter.index,
      sub_type: parameter.sub_type,
      value: parameter.value,
    })),
  };
}

function headerOf(header: Json): TemplateHeader {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return { type: String(header['type']), value: text(header['value']), file_uuid: text(header['file_uuid']), transcription: text(header['transcription']) };
}
