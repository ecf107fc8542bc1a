import { fileURLToPath, pathToFileURL } from "node:url";

/** The path of a `file:` URI, or undefined for another scheme (an untitled buffer, a remote file). */
export function pathOfUri(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

export function uriOfPath(path: string): string {
  return pathToFileURL(path).href;
}
