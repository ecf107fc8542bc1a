/**
 * The fenced code blocks and links of a Markdown file, for tests that keep documentation and
 * program in step. A block's info string is its language and then words such as `runnable`
 * (a command block the README test runs) or `output` (what the runnable block before it prints).
 */
export interface FencedBlock {
  readonly language: string;
  readonly words: readonly string[];
  readonly text: string;
  /** 1-based line of the opening fence, for failure messages. */
  readonly line: number;
}

export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const opening = /^(\s*)```(\S*)(.*)$/.exec(lines[index]!);
    if (!opening) continue;
    const indent = opening[1]!.length;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) body.push(lines[end++]!.slice(indent));
    blocks.push({
      language: opening[2]!,
      words: opening[3]!.trim().split(/\s+/).filter(Boolean),
      text: body.join("\n"),
      line: index + 1,
    });
    index = end;
  }
  return blocks;
}

/** A runnable block and, when the block right after it is marked `output`, what it must print. */
export interface RunnableBlock {
  readonly block: FencedBlock;
  readonly expected?: FencedBlock;
}

export function runnableBlocks(markdown: string): RunnableBlock[] {
  const blocks = fencedBlocks(markdown);
  const runnable: RunnableBlock[] = [];
  blocks.forEach((block, index) => {
    if (!block.words.includes("runnable")) return;
    const next = blocks[index + 1];
    runnable.push(next?.words.includes("output") ? { block, expected: next } : { block });
  });
  return runnable;
}

/** The targets of inline links `[text](target)` outside code blocks. */
export function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}
