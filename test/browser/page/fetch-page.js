// fetchRuleset against a real rule server on another origin: 200, then 304, then after a reload 200.
import { fetchRuleset } from "/rule-cascade.js";

const report = (name, value) => fetch(`/report/${name}`, { method: "POST", body: JSON.stringify(value) });
const server = new URL(location.href).searchParams.get("server");
const statuses = [];
const recordingFetch = async (input, init) => {
  const response = await fetch(input, init);
  statuses.push(response.status);
  return response;
};
const order = {
  entity: "Order",
  operation: "create",
  data: { quantity: 150, unitPrice: 1, customer: { email: "a@b.c" } },
};

try {
  const first = await fetchRuleset(server, "shop.orders.order", { fetch: recordingFetch });
  const second = await fetchRuleset(server, "shop.orders.order", { fetch: recordingFetch });
  await report("before", {
    statuses: [...statuses],
    checksums: [first.checksum, second.checksum],
    same: first === second,
    decision: second.evaluate(order).decision,
  });
  await fetch("/gate/reloaded");
  const third = await fetchRuleset(server, "shop.orders.order", { fetch: recordingFetch });
  await report("after", {
    statuses: [...statuses],
    checksum: third.checksum,
    decision: third.evaluate(order).decision,
  });
} catch (error) {
  await report("before", { failed: String(error?.stack ?? error) });
}
