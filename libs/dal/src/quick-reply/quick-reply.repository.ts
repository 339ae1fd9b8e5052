import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { QuickReplyModel } from './quick-reply.schema';

export class QuickReplyRepository {
  async exists(scope: BusinessScope, id: string): Promise<boolean> {
    return (await QuickReplyModel.exists(scopedFilter(scope, { _id: id }))) !== null;
  }
}
