import type { Rule } from 'eslint';

export declare const PRISMA_OPERATIONS: Set<string>;
export declare const RAW_OPERATIONS: Set<string>;
export declare const SQL_CLIENT: string;
export declare function prismaModelDelegates(schema: string): Set<string>;
export declare function mayQuery(relativePath: string): boolean;
export declare function databaseCall(
  operation: string,
  target: { name: string | null; isProperty: boolean; models: Set<string> },
): string | null;
export declare const repositoryQueriesRule: Rule.RuleModule;
