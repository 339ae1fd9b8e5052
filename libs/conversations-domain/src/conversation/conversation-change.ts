/**
 * How often a change of a conversation's owner, inbox status, mailbox or tags is decided again
 * after its conditional update missed. Each miss means another change of that field was made in
 * between, so this bounds how many concurrent changes one request waits out before UPDATE_FAILED.
 */
export const MAX_CHANGE_ROUNDS = 100;
