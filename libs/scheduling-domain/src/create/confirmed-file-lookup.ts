import { type BusinessScope } from '@cmsg/dal';
import mongoose from 'mongoose';
import type { ConfirmedFileLookup } from '../ports';

/**
 * Uploads live in the `files` collection of the files module (/files/request-upload and
 * /files/confirm), which is not part of this version yet: until it exists nothing is found and
 * every file reference is FILE_NOT_FOUND, as SPEC 7 defines it for a file missing or unconfirmed.
 */
export const filesCollectionLookup: ConfirmedFileLookup = {
  async isConfirmed(scope: BusinessScope, fileUuid: string): Promise<boolean> {
    const file = await mongoose.connection
      .collection('files')
      .findOne({ _id: fileUuid as never, business_id: scope.businessId, status: 'confirmed', module: 'api_messages' }, { projection: { _id: 1 } });
    return file !== null;
  },
};
