interface ContactNameParts {
  first_name?: string | null;
  middle_name?: string | null;
  last_name?: string | null;
  second_last_name?: string | null;
}

/** "First Middle Last SecondLast", skipping absent parts; undefined when there is no part at all. */
export function fullName(contact: ContactNameParts): string | undefined {
  const parts = [contact.first_name, contact.middle_name, contact.last_name, contact.second_last_name]
    .map((part) => part?.trim())
    .filter((part): part is string => !!part);
  return parts.length ? parts.join(' ') : undefined;
}
