import { BusinessRepository, FileRepository } from '@cmsg/dal';

/** The repositories the file use cases read and write through. */
export const repositories = { businesses: new BusinessRepository(), files: new FileRepository() };
