/**
 * Requests on the shipped example rules (rules/, `acme.payments.transfers`) that make the engine
 * work: defaults and fees, a limit, an embargo (server only), a bad invoice number in a list, a
 * missing reference to acknowledge, a weekend date, with `ctx.now` fixed so that answers repeat.
 */
export const TRANSFERS_RULESET = "acme.payments.transfers";

const debtor = { name: "Jana Novak", iban: "DE89370400440532013000", country: "DE" };
const context = { now: "2026-03-02T09:30:00Z" };

export const TRANSFER_REQUESTS = [
  {
    entity: "Transfer",
    operation: "create",
    data: {
      id: "TRF-1",
      amount: 1200.5,
      reference: "Invoice 2026-0042",
      purpose: "invoice",
      debtor,
      beneficiary: { name: "Holzbau Keller KG", iban: "DE75512108001245126199", country: "DE" },
    },
    actor: { id: "c-58213", roles: ["customer"] },
    ctx: context,
  },
  {
    entity: "Transfer",
    operation: "create",
    trigger: "submit",
    locale: "de",
    data: {
      id: "TRF-2",
      amount: 30000,
      currency: "EUR",
      executionDate: "2026-03-07",
      reference: "Machine parts",
      debtor,
      beneficiary: { name: "Example Trading", iban: "IR580540105180021273113007", bic: "BKMTIRTHXXX", country: "IR" },
      invoices: [
        { number: "INV-2026-0042", amount: 18000 },
        { number: "inv 43", amount: 12000 },
      ],
    },
    actor: { id: "c-58213", roles: ["customer"] },
    ctx: context,
  },
  {
    entity: "Transfer",
    operation: "create",
    trigger: "blur",
    data: {
      id: "TRF-3",
      amount: 80,
      currency: "EUR",
      debtor,
      beneficiary: { name: "B", iban: "DE75512108001245126199", country: "DE" },
    },
    ctx: context,
  },
] as const;
