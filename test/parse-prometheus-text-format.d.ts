// The parser ships no types; its output is prom2json's (README of the package).
declare module 'parse-prometheus-text-format' {
  export type PrometheusSample = {
    labels?: Record<string, string>;
    value?: string;
    /** Histograms: cumulative counts by upper bound, with the count and sum (unlabelled ones only). */
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  };
  export type PrometheusFamily = {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PrometheusSample[];
  };
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
