/**
 * The comparison servers of bench/http.ts, each in a process of its own: `fixed` answers a fixed
 * JSON body without reading the request (the target's baseline); `floor` reads the JSON body,
 * parses it and answers it serialized, the least any server that looks at a request must do.
 * Prints its port, then serves until killed.
 */
const kind = process.argv[2];
const fixedBody = JSON.stringify({ decision: "allow", findings: [], effects: [], commands: [] });
const headers = { "Content-Type": "application/json" };

const server = Bun.serve({
  port: 0,
  fetch:
    kind === "floor"
      ? async (request) => new Response(JSON.stringify(JSON.parse(await request.text())), { headers })
      : () => new Response(fixedBody, { headers }),
});
console.log(server.port);
