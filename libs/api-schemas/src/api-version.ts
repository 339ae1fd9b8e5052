/** The interface's own version (SPEC 9), sent as X-Api-Version and used as the OpenAPI info.version. */
export const API_VERSION = '0.2.0';
