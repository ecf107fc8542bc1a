/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750, section 2.1): the scheme in any
 * case, spaces after it, trailing spaces allowed; undefined for a missing header, another scheme, no
 * token, or whitespace inside the token.
 */
export function bearerCredentials(header: string | null): string | undefined {
  if (header === null || header.length < 7 || header.slice(0, 6).toLowerCase() !== "bearer") return undefined;
  let start = 6;
  while (header.charCodeAt(start) === 32) start++;
  if (start === 6) return undefined;
  let end = header.length;
  while (end > start && header.charCodeAt(end - 1) === 32) end--;
  if (end === start) return undefined;
  for (let i = start; i < end; i++) if (isSpaceOrControl(header.charCodeAt(i))) return undefined;
  return header.slice(start, end);
}

/**
 * Whitespace and control characters (`\S` in the RFC 6750 grammar's terms): inside the credentials
 * they make the header invalid, so a token holding one could never be sent.
 */
export function isSpaceOrControl(code: number): boolean {
  return (
    code <= 32 ||
    code === 0x7f ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
