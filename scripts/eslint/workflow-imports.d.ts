import type { Rule } from 'eslint';

export declare const workflowImportsRule: Rule.RuleModule;
