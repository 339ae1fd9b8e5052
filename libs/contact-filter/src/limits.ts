/** CONTRACT 10.1's limits of contact attributes and of the filter language. */
export const MAX_ATTRIBUTE_DEFINITIONS = 100;
export const MAX_LIST_OPTIONS = 50;
/** In characters (code points), as a customer counts them, not UTF-16 units. */
export const MAX_TEXT_ATTRIBUTE_LENGTH = 1024;

export const MAX_FILTER_CONDITIONS = 20;
/** A top group, groups inside it, conditions inside those. */
export const MAX_FILTER_DEPTH = 2;
export const MAX_IN_VALUES = 100;
