import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { AiEmployeeModel } from './ai-employee.schema';

export class AiEmployeeRepository {
  async exists(scope: BusinessScope, id: string): Promise<boolean> {
    return (await AiEmployeeModel.exists(scopedFilter(scope, { _id: id }))) !== null;
  }
}
