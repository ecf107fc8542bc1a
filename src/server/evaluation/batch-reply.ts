import type { BatchItem } from "./batch-request.ts";
import type { EvaluationReply } from "./evaluation-reply.ts";

/**
 * The body of a batch's answer: `{"results": [...]}` in the order of the items, each
 * `{id?, status, result}` or `{id?, status, problem}`. Each reply's body is already the JSON a
 * single request would be answered with, so it is spliced in as it is, never parsed again.
 */
export function batchReplyBody(items: readonly BatchItem[], replies: readonly EvaluationReply[]): string {
  let body = '{"results":[';
  for (let index = 0; index < replies.length; index++) {
    const reply = replies[index]!;
    const id = items[index]!.id;
    if (index > 0) body += ",";
    body += id === undefined ? "{" : `{"id":${JSON.stringify(id)},`;
    body += `"status":${reply.status},${reply.status === 200 ? '"result":' : '"problem":'}${reply.body}}`;
  }
  return `${body}]}`;
}
