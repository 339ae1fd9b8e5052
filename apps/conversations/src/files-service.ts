import { BusinessRepository, FileContentStore, FileRepository } from '@cmsg/dal';
import { Files } from '@cmsg/files';
import type { ConversationsConfig } from './config';

/** The file use cases over the real files collection, businesses' storage accounts and GridFS, built once at boot. */
export function filesService(config: Pick<ConversationsConfig, 'SIGNING_SECRET' | 'PUBLIC_BASE_URL'>): Files {
  return new Files({
    signingSecret: config.SIGNING_SECRET,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    ports: { files: new FileRepository(), businesses: new BusinessRepository(), store: new FileContentStore() },
  });
}
