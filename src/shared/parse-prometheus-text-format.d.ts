/** The package ships no types: what its one function returns (prom2json's shape). Here in shared/ because both typechecks reach the core (the renderer tests run a real core). */
declare module 'parse-prometheus-text-format' {
  interface ParsedSample {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    quantiles?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  interface ParsedFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: ParsedSample[];
  }
  /** Throws on a line it cannot read ("Encountered invalid line: …"). */
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
