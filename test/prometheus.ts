import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';

/** A scrape parsed by a real exposition-format parser, with the lookups tests need. */
export function parseScrape(text: string) {
  const families = new Map<string, PrometheusFamily>(
    parsePrometheusTextFormat(text).map((family) => [family.name, family]),
  );
  const samplesOf = (name: string, labels: Record<string, string>) =>
    (families.get(name)?.metrics ?? []).filter((sample) =>
      Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value),
    );
  return {
    families,
    /** The sum of a counter's or gauge's samples matching `labels` (0 when it has none yet). */
    value(name: string, labels: Record<string, string> = {}): number {
      return samplesOf(name, labels).reduce((total, sample) => total + Number(sample.value ?? 0), 0);
    },
    /**
     * A histogram's observation count for exactly these labels, read from its `_count` line: the
     * parser folds a labelled histogram's series into one (it keeps prom2json's unlabelled shape).
     */
    count(name: string, labels: Record<string, string>): number {
      const set = Object.entries(labels)
        .map(([key, value]) => `${key}="${value}"`)
        .join(',');
      const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}_count{${set}} `));
      return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
    },
  };
}

export async function scrape(url: string, token?: string) {
  const response = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}
