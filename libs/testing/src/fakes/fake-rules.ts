import { randomUUID } from 'node:crypto';

/** What every failure/latency rule of a fake can say. */
export interface FakeRuleBase {
  /** Given by the fake when absent; lets a test remove its own rule. */
  id?: string;
  /** Apply to this many matching requests, then disappear. Unlimited when absent. */
  times?: number;
  /** Wait this long before answering (normally, or with the failure below). */
  delay_ms?: number;
  /** Answer with this HTTP status and the protocol's error body instead of the normal answer. */
  status?: number;
  /** Close the connection without answering (a network failure as the client sees it). */
  disconnect?: boolean;
}

/** Ordered rules; the first one that matches a request is used (and consumed when it has `times`). */
export class RuleBook<Rule extends FakeRuleBase> {
  private rules: (Rule & { id: string })[] = [];

  add(rule: Rule): string {
    const id = rule.id ?? randomUUID();
    this.rules.push({ ...rule, id });
    return id;
  }

  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((rule) => rule.id !== id);
    return this.rules.length !== before;
  }

  clear(): void {
    this.rules = [];
  }

  list(): Rule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  take(matches: (rule: Rule) => boolean): Rule | undefined {
    const index = this.rules.findIndex((rule) => (rule.times === undefined || rule.times > 0) && matches(rule));
    if (index < 0) return undefined;
    const rule = this.rules[index]!;
    if (rule.times !== undefined) {
      rule.times -= 1;
      if (rule.times <= 0) this.rules.splice(index, 1);
    }
    return { ...rule };
  }
}
