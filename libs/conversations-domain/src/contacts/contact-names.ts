// The name rule lives with the contact snapshot in libs/dal; re-exported for the domain's callers.
export { fullName } from '@cmsg/dal';
