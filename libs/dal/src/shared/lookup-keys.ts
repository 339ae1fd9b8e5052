/** FerretDB has no collation: lookups go through normalised keys stored beside the display values. */
export function phoneLookupKey(phone: string): string {
  return phone.replace(/\D+/g, '');
}

export function usernameLookupKey(username: string): string {
  return username.trim().replace(/^@/, '').toLowerCase();
}

export function nameLookupKey(name: string): string {
  return name.trim().toLowerCase();
}
