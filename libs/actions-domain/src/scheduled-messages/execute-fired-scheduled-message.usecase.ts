import { type ScheduleDeliveryPath, type ScheduleHistoryEntry, type ScheduledMessageCommand, scheduleHistoryEntry, scheduledOperationId } from '@cmsg/conversation-commands';
import { CatalogError, isCatalogError, toCatalogError } from '@cmsg/errors';
import { type BusinessScope, type ExecutingStatus, type ScheduledMessageEntity, businessScope } from '@cmsg/dal';
import { protoScheduledPayloadToSendContent, storedScheduledPayloadToProto, storedTemplateToProto } from '@cmsg/message-codec';
import type { Logger } from '@cmsg/platform';
import type { Caller, MessageAuthor, SendMessageRequest } from '@cmsg/proto';
import type { AiPipelines } from '../ai/ai-pipelines';
import { isTransientFailure } from '../action-group/failure-policy';
import { AI_RUN_BUDGET_MS } from '../limits';
import type { Clock, ConversationServices } from '../ports';
import type { FiredSchedules } from './fired-schedules';

export interface ScheduledMessagePorts {
  services: ConversationServices;
  ai: Pick<AiPipelines, 'run'>;
  store: FiredSchedules;
  clock: Clock;
  logger: Logger;
  aiBudgetMs?: number;
}

/** The schedule being executed, the state this run last saw it in, and what its outcome records. */
interface Execution {
  schedule: ScheduledMessageEntity;
  status: ExecutingStatus;
  /** The delivery path was decided by this run (not read from an earlier one). */
  decidedHere: boolean;
  /** Recorded with the outcome: a literal send that needed no decision beforehand (see sendLiterallyFirst). */
  sentLiterally: boolean;
}

/**
 * Runs a fired schedule (topic conversation-commands, kind scheduled_message) once, whatever
 * number of copies of the command arrive and wherever a previous run stopped. Each write is an
 * update conditional on the state it leaves:
 *
 * - firing -> sending records the delivery path before anything is sent when it depends on the
 *   window (AI branch, after writing the reason as a context note, once: its id derives from the
 *   schedule; a template or file payload): the AI replies while the 24 h window is open, else the
 *   fallback template (the schedule's, or the channel's default scheduled template) is sent; the
 *   literal payload while the window is open, else its template. A later run follows the recorded
 *   path. A text or quick reply needs no decision first (sendLiterallyFirst);
 * - every send or AI run carries an operation id derived from the schedule uuid, so a re-run
 *   replays instead of sending again;
 * - firing | sending -> sent | failed records the outcome; a schedule in any other state is left alone.
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
  // A copy of the command for a schedule an earlier run finished.
  if (schedule.status !== 'firing' && schedule.status !== 'sending') return;

  const caller: Caller = { business_id: command.business_id, token_uuid: schedule.created_by_token_id ?? command.token_uuid };
  const execution: Execution = { schedule, status: schedule.status, decidedHere: false, sentLiterally: false };
  try {
    const messageUuid = await deliver(scope, execution, caller, ports, signal);
    const sent = scheduleHistoryEntry('sent', 'sent', clock.now(), { detail: messageUuid ? { message_uuid: messageUuid } : {} });
    const outcome = { status: 'sent' as const, error: null };
    if (execution.sentLiterally) {
      await store.finish(scope, execution.schedule, 'firing', outcome, [sendingEntry('literal', ports), sent], 'literal');
    } else {
      await store.finish(scope, execution.schedule, execution.status, outcome, [sent]);
    }
  } catch (error) {
    if (error instanceof DecidedElsewhere) return;
    if (signal?.aborted) throw error;
    const failure = toCatalogError(error);
    if (isTransientFailure(failure)) throw failure;
    if (failure.code === 'UNKNOWN_ERROR') logger.error({ err: error, schedule_uuid: schedule._id }, 'scheduled message failed unexpectedly');
    const recorded = { code: failure.code, message: failure.message };
    await store.finish(scope, execution.schedule, execution.status, { status: 'failed', error: recorded }, [scheduleHistoryEntry('failed', 'failed', clock.now(), { detail: recorded })]);
  }
  logger.info({ schedule_uuid: schedule._id, conversation_uuid: schedule.conversation_id }, 'scheduled message executed');
}

/** Dead-letter path: the command failed every attempt; the schedule ends failed (UPDATE_FAILED) unless it finished. */
export async function abandonFiredScheduledMessage(command: ScheduledMessageCommand, cause: unknown, ports: Pick<ScheduledMessagePorts, 'store' | 'clock'>): Promise<void> {
  const scope = businessScope(command.business_id);
  const reason = isCatalogError(cause) ? `${cause.code}: ${cause.message}` : String(cause);
  const error = { code: 'UPDATE_FAILED', message: `The scheduled message could not be sent after repeated attempts (${reason}).` };
  const entries = [scheduleHistoryEntry('failed', 'failed', ports.clock.now(), { detail: error })];
  const schedule = await ports.store.find(scope, command.schedule_uuid);
  if (!schedule) return;
  if (await ports.store.finish(scope, schedule, 'sending', { status: 'failed', error }, entries)) return;
  await ports.store.finish(scope, schedule, 'firing', { status: 'failed', error }, entries);
}

/** Another run of the same schedule moved it on while this one was deciding: that run goes on. */
class DecidedElsewhere extends Error {}

/** Sends (or runs the AI) along the decided path; answers the uuid of the message sent, when known. */
async function deliver(scope: BusinessScope, execution: Execution, caller: Caller, ports: ScheduledMessagePorts, signal: AbortSignal | undefined): Promise<string | undefined> {
  if (execution.status === 'firing') {
    if (sentLiterallyFirst(execution.schedule)) return sendLiterallyFirst(scope, execution, caller, ports);
    await decideFromWindow(scope, execution, caller, ports);
  }
  const { schedule } = execution;
  const path = schedule.delivery as ScheduleDeliveryPath;
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
        if (!execution.decidedHere || !isCatalogError(error) || error.code !== 'WINDOW_CLOSED') throw error;
        await switchTo(scope, schedule, 'ai_fallback_template', ports);
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
        await switchTo(scope, schedule, 'template', ports);
        return send(ports, templateRequest(schedule, caller));
      }
    case 'template':
      return send(ports, templateRequest(schedule, caller));
    default:
      throw new CatalogError('UPDATE_FAILED', `Unknown delivery path ${JSON.stringify(path)} recorded on the scheduled message.`);
  }
}

/**
 * A text or quick reply: the conversations service refuses it with WINDOW_CLOSED before anything
 * goes out, so it is sent literally with nothing recorded first (every run starts the same way and
 * the operation id replays a send that went out) and the path is recorded with the outcome. Refused,
 * the template is recorded (firing -> sending) before it is sent, so a re-run sends the template.
 * A template payload goes out whatever the window, and a file send to a tester conversation fails
 * on the file first: those decide from the window (decideFromWindow).
 */
function sentLiterallyFirst(schedule: ScheduledMessageEntity): boolean {
  const payload = schedule.payload ?? {};
  return schedule.executor_kind === 'human_user' && (payload['kind'] === 'quick_reply' || (payload['kind'] === 'message' && !payload['media']));
}

async function sendLiterallyFirst(scope: BusinessScope, execution: Execution, caller: Caller, ports: ScheduledMessagePorts): Promise<string | undefined> {
  const { schedule } = execution;
  try {
    const messageUuid = await send(ports, literalRequest(schedule, caller));
    execution.sentLiterally = true;
    return messageUuid;
  } catch (error) {
    if (!isCatalogError(error) || error.code !== 'WINDOW_CLOSED') throw error;
    await startSending(scope, execution, 'template', [], ports);
    return send(ports, templateRequest(execution.schedule, caller));
  }
}

/** firing -> sending with the path the window decides now, after the AI branch's context note is written. */
async function decideFromWindow(scope: BusinessScope, execution: Execution, caller: Caller, ports: ScheduledMessagePorts): Promise<void> {
  const { services, store, clock } = ports;
  const { schedule } = execution;
  const entries = [];
  let noteId = schedule.note_id;
  if (schedule.executor_kind === 'ai_employee' && schedule.reason && !noteId) {
    noteId = await store.addContextNote(scope, schedule, caller.token_uuid, clock.now());
    entries.push(scheduleHistoryEntry('note_added', 'firing', clock.now(), { detail: { note_uuid: noteId } }));
  }
  const context = await services.actions.getConversationContext({ caller, conversation: { uuid: schedule.conversation_id } });
  await startSending(scope, execution, initialPath(schedule.executor_kind, context.window_status === 'open'), entries, ports, noteId);
}

/** firing -> sending; a run that loses the transition follows the path the winner recorded. */
async function startSending(scope: BusinessScope, execution: Execution, delivery: ScheduleDeliveryPath, entries: ScheduleHistoryEntry[], ports: ScheduledMessagePorts, noteId: string | null = null): Promise<void> {
  const { store } = ports;
  const at = ports.clock.now();
  const started = await store.startSending(scope, execution.schedule, { delivery, noteId, at }, [...entries, sendingEntry(delivery, ports, at)]);
  const current = started ?? (await store.find(scope, execution.schedule._id));
  if (current?.status !== 'sending') throw new DecidedElsewhere();
  Object.assign(execution, { schedule: current, status: 'sending', decidedHere: started !== null });
}

function sendingEntry(delivery: ScheduleDeliveryPath, ports: Pick<ScheduledMessagePorts, 'clock'>, at: Date = ports.clock.now()): ScheduleHistoryEntry {
  return scheduleHistoryEntry('sending', 'sending', at, { detail: { delivery } });
}

function initialPath(executorKind: string, windowOpen: boolean): ScheduleDeliveryPath {
  if (executorKind === 'ai_employee') return windowOpen ? 'ai_run' : 'ai_fallback_template';
  return windowOpen ? 'literal' : 'template';
}

/** The fallback after WINDOW_CLOSED, recorded before it is sent: a re-run sends the fallback too. */
function switchTo(scope: BusinessScope, schedule: ScheduledMessageEntity, delivery: ScheduleDeliveryPath, ports: ScheduledMessagePorts): Promise<void> {
  return ports.store.switchDelivery(scope, schedule._id, delivery, sendingEntry(delivery, ports));
}

async function sendAiFallbackTemplate(scope: BusinessScope, schedule: ScheduledMessageEntity, caller: Caller, ports: ScheduledMessagePorts): Promise<string | undefined> {
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

function authorOf(schedule: ScheduledMessageEntity, caller: Caller): MessageAuthor {
  return { type: 'api_token', uuid: schedule.author?.uuid ?? (caller.token_uuid || undefined) };
}

/** The human payload as it was scheduled (window open at firing). */
function literalRequest(schedule: ScheduledMessageEntity, caller: Caller): SendMessageRequest {
  const base = { caller, conversation: { uuid: schedule.conversation_id }, operation_id: scheduledOperationId(schedule._id, 'literal'), author: authorOf(schedule, caller) };
  const payload = schedule.payload ?? {};
  // A file is linked through a signed URL the conversations service makes at send time (re-signed now).
  const content = protoScheduledPayloadToSendContent(storedScheduledPayloadToProto(payload));
  if (!content) throw new CatalogError('PREPARE_FAILED', `The scheduled payload has an unknown kind ${JSON.stringify(payload['kind'])}.`);
  return { ...base, ...content };
}

/** The schedule's template (window closed at firing). */
function templateRequest(schedule: ScheduledMessageEntity, caller: Caller): SendMessageRequest {
  if (!schedule.template_id) throw new CatalogError('TEMPLATE_NOT_FOUND', 'The scheduled message has no template for a closed window.');
  return {
    caller,
    conversation: { uuid: schedule.conversation_id },
    operation_id: scheduledOperationId(schedule._id, 'template'),
    author: authorOf(schedule, caller),
    template: storedTemplateToProto(schedule.template_id, schedule.template_variables, schedule.template_header, schedule.template_button_parameters),
  };
}
