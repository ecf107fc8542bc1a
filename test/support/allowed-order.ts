/** An evaluation of test/cases/server-rules that every rule allows: a request whose answer is 200 `allow`. */
export const ALLOWED_ORDER = {
  ruleset: "shop.orders.order",
  entity: "Order",
  operation: "create",
  data: { quantity: 50, unitPrice: 1, customer: { email: "a@b.c" } },
} as const;
