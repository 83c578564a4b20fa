// Which tool calls run without asking: force mode (all of them) and the tools
// the person answered "always" for in this session. The one place force mode
// is stored; the runner consults it, the coordinator changes it.

export class ToolPolicy {
  /** Force mode: every tool call runs without asking. */
  force = false;
  private readonly always = new Set<string>();

  /** True when a call of this tool runs without asking. */
  allows(tool: string): boolean {
    return this.force || this.always.has(tool);
  }

  allowAlways(tool: string): void {
    this.always.add(tool);
  }

  /** The tools on "always", for the status bar. */
  alwaysTools(): string[] {
    return [...this.always].sort();
  }

  clearAlways(): void {
    this.always.clear();
  }
}
