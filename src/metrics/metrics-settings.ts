/** What the metrics module runs with: the `metrics` part of AppConfig, and which process it is. */
export interface MetricsSettings {
  port: number;
  host: string;
  maxVenueLabels: number;
  databaseReadMs: number;
  role: 'service' | 'worker';
  interimSeconds: number;
}

export const METRICS_SETTINGS = Symbol('METRICS_SETTINGS');
