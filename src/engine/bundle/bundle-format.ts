/** The `ruleCascadeBundle` format this runtime writes, and the major version it reads. */
export const BUNDLE_FORMAT_VERSION = "1.0.0";
export const SUPPORTED_BUNDLE_MAJOR = "1";
