import { type BusinessScope } from '@cmsg/dal';
import mongoose from 'mongoose';
import type { ConfirmedFileLookup } from '../ports';

/**
 * Uploads live in the `files` collection of the files module (/files/request-upload and
 * /files/confirm): a file missing, unconfirmed or of another module is FILE_NOT_FOUND (SPEC 7).
 */
export const filesCollectionLookup: ConfirmedFileLookup = {
  async isConfirmed(scope: BusinessScope, fileUuid: string): Promise<boolean> {
    const file = await mongoose.connection
      .collection('files')
      .findOne({ _id: fileUuid as never, business_id: scope.businessId, status: 'confirmed', module: 'api_messages' }, { projection: { _id: 1 } });
    return file !== null;
  },
};
