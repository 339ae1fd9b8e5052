/** What a placeholder reads (CONTRACT 10.4). */
export type PlaceholderPath =
  | { root: 'contact'; field: 'first_name' | 'last_name' }
  | { root: 'contact'; field: 'attributes'; key: string }
  | { root: 'row'; column: string };

export type PlaceholderRoot = PlaceholderPath['root'];

export interface Placeholder {
  kind: 'placeholder';
  /** As written, braces included: what a recipient's `missing_variable` names. */
  written: string;
  path: PlaceholderPath;
  /** Used when the value is empty or absent; never empty itself. */
  fallback: string | null;
}

export type TemplateSegment = { kind: 'text'; text: string } | Placeholder;

export interface ParsedVariable {
  index: number;
  segments: readonly TemplateSegment[];
}

export type ParsedVariables = readonly ParsedVariable[];
