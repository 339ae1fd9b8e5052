/** SPEC 8: the whole group's wall-clock budget, counted from its first execution start. */
export const GROUP_BUDGET_MS = 800_000;

/** SPEC 8 / CONTRACT 7: one AI pipeline (context, provider call, reply). */
export const AI_RUN_BUDGET_MS = 300_000;

/**
 * Chained AI actions (SPEC 7 ACTIONS_DEPTH_EXCEEDED). A group submitted through the public API has
 * depth 0; a command produced while executing another command carries that command's depth + 1.
 * An AI-triggering action runs at its command's depth + 1, which may not exceed this.
 */
export const MAX_ACTIONS_DEPTH = 3;

/** Recent timeline entries an AI run reads. */
export const AI_TIMELINE_LIMIT = 50;

/** The public limits of a sent text and of a note (SPEC 8). */
export const MAX_MESSAGE_TEXT = 4096;
export const MAX_NOTE_TEXT = 5000;
