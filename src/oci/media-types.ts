/** The media types of the OCI image specification this client reads and writes. */
export const OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
export const OCI_INDEX = "application/vnd.oci.image.index.v1+json";
/** The config of an artifact that needs none: the two bytes `{}`. */
export const OCI_EMPTY = "application/vnd.oci.empty.v1+json";
/** Docker's manifests, accepted when pulling only to say that they are not a rules artifact. */
export const DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json";
export const DOCKER_MANIFEST_LIST = "application/vnd.docker.distribution.manifest.list.v2+json";
/** The annotation holding a layer's file name. */
export const TITLE_ANNOTATION = "org.opencontainers.image.title";

/** The artifact `rule-server push` makes: compiled bundles and their signatures. */
export const RULES_ARTIFACT_TYPE = "application/vnd.rule-cascade.bundles.v1";
export const BUNDLE_LAYER = "application/vnd.rule-cascade.bundle.v1+json";
/** A bundle's signature (`<bundle>.sig`), a compact JWS. */
export const SIGNATURE_LAYER = "application/jose";
