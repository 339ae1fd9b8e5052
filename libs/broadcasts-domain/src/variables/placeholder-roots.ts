import type { ParsedVariables, Placeholder, PlaceholderRoot } from './variable-template';

/** The roots the placeholders read: `row` is only valid for a file audience (the caller checks). */
export function placeholderRoots(parsed: ParsedVariables): ReadonlySet<PlaceholderRoot> {
  return new Set(placeholdersOf(parsed).map((placeholder) => placeholder.path.root));
}

/** The file columns the placeholders read, so a CSV header can be checked against them. */
export function referencedRowColumns(parsed: ParsedVariables): string[] {
  const columns = placeholdersOf(parsed).flatMap(({ path }) => (path.root === 'row' ? [path.column] : []));
  return [...new Set(columns)];
}

function placeholdersOf(parsed: ParsedVariables): Placeholder[] {
  return parsed.flatMap(({ segments }) => segments.filter((segment): segment is Placeholder => segment.kind === 'placeholder'));
}
