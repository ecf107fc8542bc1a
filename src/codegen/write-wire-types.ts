/** `bun src/codegen/write-wire-types.ts`: writes src/client/wire-types.ts from openapi.yaml after the description changed. */
import { writeFileSync } from "node:fs";
import { WIRE_TYPES_FILE, wireTypesModule } from "./wire-types-module.ts";

writeFileSync(WIRE_TYPES_FILE, wireTypesModule());
console.log(`wrote ${WIRE_TYPES_FILE}`);
