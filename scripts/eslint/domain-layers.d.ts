import type { Rule } from 'eslint';

export type DomainLayer = {
  name: string;
  holds: string;
  domains: string[];
  within: Record<string, string[]>;
};

export declare const DOMAIN_LAYERS: DomainLayer[];
export declare const PENDING_DOMAIN_IMPORTS: Record<string, string>;
export declare function domainLayer(domain: string): DomainLayer | undefined;
export declare function mayImportDomain(from: string, to: string): boolean;
export declare const domainLayersRule: Rule.RuleModule;
