/**
 * Lookups by phone, username and name use normalised keys stored beside the display value (no
 * collations: docs/data-layer.md), so an equality on an indexed field finds them.
 */
export function phoneLookupKey(phone: string): string {
  return phone.replace(/\D+/g, '');
}

export function usernameLookupKey(username: string): string {
  return username.trim().replace(/^@/, '').toLowerCase();
}

export function nameLookupKey(name: string): string {
  return name.trim().toLowerCase();
}
