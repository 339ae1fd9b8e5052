import { nameLookupKey } from '@cmsg/dal';
import type { TagDirectory } from '../tags/change-tags.usecase';
import type { StoredTag } from '../tags/tag-change-plan';
import { InMemoryNamedObjects } from './in-memory-named-objects';

type TagRow = StoredTag & { business_id: string; name_key: string };

export function tagRow(fields: { _id: string; business_id: string; name: string; color?: string; is_default?: boolean }): TagRow {
  return { color: '', is_default: false, name_key: nameLookupKey(fields.name), ...fields };
}

export class InMemoryTags extends InMemoryNamedObjects<TagRow> implements TagDirectory {}
