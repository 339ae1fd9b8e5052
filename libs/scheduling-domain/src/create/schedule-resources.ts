import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import type { AiEmployeeDirectory, ConfirmedFileLookup, QuickReplyDirectory, TemplateDirectory } from '../ports';

export interface ScheduledTemplate {
  _id: string;
  name: string;
  status: string;
  variable_count: number;
}

export async function assertAiEmployeeExists(aiEmployees: AiEmployeeDirectory, scope: BusinessScope, aiEmployeeId: string): Promise<void> {
  if (!(await aiEmployees.exists(scope, aiEmployeeId))) {
    throw new CatalogError('AI_EMPLOYEE_NOT_FOUND', `No AI employee ${aiEmployeeId} in this business.`);
  }
}

/** A template of the business that a schedule may send later: it must exist and be approved now. */
export async function approvedTemplate(templates: TemplateDirectory, scope: BusinessScope, templateId: string, field: string): Promise<ScheduledTemplate> {
  const template = await templates.findById(scope, templateId);
  if (!template) throw new CatalogError('TEMPLATE_NOT_FOUND', `${field}: no template ${templateId} in this business.`);
  if (template.status !== 'approved') {
    throw new CatalogError('TEMPLATE_NOT_APPROVED', `${field}: template ${template.name} is ${template.status}, not approved.`);
  }
  return { _id: template._id, name: template.name, status: template.status, variable_count: template.variable_count };
}

export async function assertQuickReplyExists(quickReplies: QuickReplyDirectory, scope: BusinessScope, quickReplyId: string): Promise<void> {
  if (!(await quickReplies.exists(scope, quickReplyId))) {
    throw new CatalogError('QUICK_REPLY_NOT_FOUND', `No quick reply ${quickReplyId} in this business.`);
  }
}

/** SPEC 4.1: files must be uploaded and confirmed (module api_messages) before scheduling. */
export async function assertFileConfirmed(files: ConfirmedFileLookup, scope: BusinessScope, fileUuid: string, field: string): Promise<void> {
  if (!(await files.isConfirmed(scope, fileUuid))) {
    throw new CatalogError('FILE_NOT_FOUND', `${field}: no confirmed file ${fileUuid} (module api_messages) in this business.`);
  }
}
