import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const SHOP_SOURCES = join(import.meta.dir, "..", "..", "test", "cases", "interop", "shop");

/** A rules directory in `scratch` holding the interop vectors' shop ruleset and its schema; its path. */
export function shopRulesDirectory(scratch: string): string {
  const directory = join(scratch, "shop-rules");
  mkdirSync(directory);
  for (const file of ["shop-order.ruleset.yaml", "order.schema.json"])
    copyFileSync(join(SHOP_SOURCES, file), join(directory, file));
  return directory;
}
