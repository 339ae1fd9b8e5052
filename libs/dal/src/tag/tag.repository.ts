import { NamedTenantRepository } from '../shared/tenant-repository';
import type { TagEntity } from './tag.entity';
import { TagModel } from './tag.schema';

export class TagRepository extends NamedTenantRepository<TagEntity> {
  constructor() {
    super(TagModel);
  }
}
