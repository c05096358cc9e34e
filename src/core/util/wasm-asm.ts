// A small assembler for the hand-assembled WebAssembly functions (util/wasm-simd.ts's
// opcodes): the bytes in order, and blocks, loops and ifs with named labels, so a branch
// names where it goes and its depth is counted here, not by hand.

import { BR, BR_IF, ELSE, END, IF, VOID } from "./wasm-simd";

/** Opcodes in order, and labels by name for the branches. */
export class Asm {
  readonly code: number[] = [];
  private readonly labels: string[] = [];

  op(...bytes: number[]): this {
    for (const b of bytes) this.code.push(b);
    return this;
  }

  /** A block (branch to it: go past its end) or a loop (branch to it: go to its start), named `label`. */
  nest(kind: number, label: string, body: () => void): this {
    this.code.push(kind, VOID);
    this.labels.push(label);
    body();
    this.labels.pop();
    this.code.push(END);
    return this;
  }

  /** `if` and `else`: each body sits one level deeper for the branches inside. */
  ifElse(yes: () => void, no: () => void): this {
    this.code.push(IF, VOID);
    this.labels.push("");
    yes();
    this.code.push(ELSE);
    no();
    this.labels.pop();
    this.code.push(END);
    return this;
  }

  /** `if` with no else: its body sits one level deeper for the branches inside. */
  then(body: () => void): this {
    return this.nest(IF, "", body);
  }

  private depth(label: string): number {
    const i = this.labels.lastIndexOf(label);
    if (i < 0) throw new Error(`Asm: no label ${label}`);
    return this.labels.length - 1 - i;
  }

  br(label: string): this {
    return this.op(BR, this.depth(label));
  }

  brIf(label: string): this {
    return this.op(BR_IF, this.depth(label));
  }
}
