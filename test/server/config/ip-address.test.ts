import { expect, test } from "bun:test";
import { isIP } from "node:net";
import { isIpAddress } from "../../../src/server/config/ip-address.ts";

/** Our IP address check answers as node:net's isIP on addresses, near misses and host names. */
const CASES = [
  "0.0.0.0",
  "127.0.0.1",
  "255.255.255.255",
  "256.1.1.1",
  "01.2.3.4",
  "1.2.3",
  "1.2.3.4.5",
  "1.2.3.",
  " 1.2.3.4",
  "::",
  "::1",
  "1::",
  "fe80::1",
  "fe80::1%eth0",
  "fe80::1%",
  "fe80::1%eth 0",
  "2001:db8::8a2e:370:7334",
  "2001:0db8:0000:0000:0000:ff00:0042:8329",
  "2001:db8:0:0:0:0:2:1:5",
  "2001:db8:0:0:0:0:2",
  "1:2:3:4:5:6:7::",
  "1:2:3:4:5:6:7:8::",
  "::ffff:192.0.2.128",
  "::ffff:192.0.2.256",
  "1:2:3:4:5:6:1.2.3.4",
  "1:2:3:4:5:6:7:1.2.3.4",
  "1::2::3",
  ":::",
  "12345::1",
  "g::1",
  "::1.2.3.4",
  "1.2.3.4::",
  "localhost",
  "rules.example.com",
  "",
  "[::1]",
];

test("every case is an address exactly when node:net says so", () => {
  for (const text of CASES) expect({ text, address: isIpAddress(text) }).toEqual({ text, address: isIP(text) !== 0 });
});
